package main

import (
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2"
)

// loaded are the plugins the tests loaded (a kind is registered once per
// process).
var loaded = map[string]bool{}

// buildPlugin builds tests/plugins/NAME.c as a plugin, the way docs/plugins.md
// tells users to, and loads it into the host (skipped without cc).
func buildPlugin(t *testing.T, name string) {
	t.Helper()
	if loaded[name] {
		return
	}
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no cc to build a plugin with")
	}
	src, err := filepath.Abs(filepath.Join("..", "..", "..", "..", "tests", "plugins", name+".c"))
	if err != nil {
		t.Fatal(err)
	}
	so := filepath.Join(t.TempDir(), name+".so")
	engine := filepath.Join(filepath.Dir(src), "..", "..", "engine")
	if out, err := exec.Command(cc, "-std=c11", "-shared", "-fPIC", "-I"+engine, src, "-o", so).CombinedOutput(); err != nil {
		t.Fatalf("building %s: %v\n%s", name, err, out)
	}
	if err := loadPlugin([]byte(so)); err != nil {
		t.Fatalf("loading %s: %v", name, err)
	}
	loaded[name] = true
	takeViolations()
}

func TestPluginSpecs(t *testing.T) {
	buildPlugin(t, "mine")
	b, err := ParsePolicy([]byte(" mine(bits=10) "))
	if err != nil || b.Plugin != "mine(bits=10)" {
		t.Fatalf("mine(bits=10): %+v %v", b, err)
	}
	l, err := ParsePolicyList([]byte("bloom(bits=8,whole_key=0,prefix=myex:2)"))
	if err != nil || len(l) != 1 || l[0].Extractor == nil || *l[0].Extractor != (Extractor{Kind: PluginX, Plugin: "myex:2"}) {
		t.Fatalf("a bloom with myex:2: %+v %v", l, err)
	}
	for _, bad := range []string{"myex:2", "bloom(prefix=mine)", "bloom(prefix=myex:0)"} {
		if _, err := ParsePolicyList([]byte(bad)); err == nil || err.(*specError).unsupported {
			t.Errorf("%q should be invalid: %v", bad, err)
		}
	}
	e := *l[0].Extractor
	if n, ok := e.PrefixLen(Point, []byte("abc")); !ok || n != 2 {
		t.Errorf("myex:2 of abc: %d %v", n, ok)
	}
	if _, ok := e.PrefixLen(Point, []byte("a")); ok {
		t.Errorf("myex:2 of a: a prefix")
	}
	if e.Name() == "" || e.Spec() != "myex:2" {
		t.Errorf("myex:2: name %q, spec %q", e.Name(), e.Spec())
	}
	// a plugin Split: its prefix successor is a prefix key
	split := splitOf(e)
	if k := prefixSuccessor(split, nil, []byte("ab")); string(k) != "ac" {
		t.Errorf("successor of ab under myex:2: %q", k)
	}
	o, f := ParseOptions([]option{{"policies", []byte("mine(bits=10)")}})
	if f != nil || o.Policy == nil || o.Policy.Plugin == "" || o.Extractor() != nil {
		t.Errorf("policies=mine(bits=10): %+v %v", o, f)
	}
	if _, f := ParseOptions([]option{{"policies", []byte("bloom(bits=8,prefix=myex:2)")}}); f == nil || f.kind != "unsupported" {
		t.Errorf("a whole-key bloom with myex:2 should be unsupported: %v", f)
	}
}

// TestPluginPolicy: the plugin's policy through the probe wrapper, as
// Pebble drives it: a writer per table, MayContain per probe.
func TestPluginPolicy(t *testing.T) {
	buildPlugin(t, "mine")
	probed, f := newPolicy(&Bloom{Plugin: "mine(bits=10)"})
	if f != nil {
		t.Fatal(f)
	}
	defer probed.free()
	if !strings.Contains(probed.Name(), "mine") {
		t.Errorf("name %q", probed.Name())
	}
	w := probed.NewWriter(pebble.TableFilter)
	for i := 0; i < 100; i++ {
		w.AddKey([]byte(fmt.Sprintf("k%03d", i)))
	}
	filter := w.Finish([]byte("x"))[1:]
	if len(filter) == 0 || bytes.Equal(filter, noFilter) {
		t.Fatalf("no filter: %q", filter)
	}
	probed.setTarget(Point)
	probed.take()
	for i := 0; i < 100; i++ {
		if !probed.MayContain(pebble.TableFilter, filter, []byte(fmt.Sprintf("k%03d", i))) {
			t.Fatalf("k%03d: a false negative", i)
		}
	}
	no := 0
	for i := 0; i < 100; i++ {
		if !probed.MayContain(pebble.TableFilter, filter, []byte(fmt.Sprintf("absent%03d", i))) {
			no++
		}
	}
	if no < 50 {
		t.Errorf("only %d of 100 absent keys ruled out", no)
	}
	if p := probed.take(); len(p) != 200 || len(perTable(p)) != 1 {
		t.Errorf("%d probes noted, %d tables", len(p), len(perTable(p)))
	}
	// mine answers maybe to a PREFIX query
	probed.setTarget(Prefix)
	if !probed.MayContain(pebble.TableFilter, filter, []byte("absent000")) {
		t.Error("a PREFIX query was ruled out")
	}
	// a table without a filter of the plugin's answers maybe
	if !probed.MayContain(pebble.TableFilter, noFilter, []byte("x")) || !probed.MayContain(pebble.TableFilter, nil, []byte("x")) {
		t.Error("no filter ruled out a key")
	}
	// the writer starts over after Finish
	w.AddKey([]byte("other"))
	second := w.Finish(nil)
	probed.setTarget(Point)
	if !probed.MayContain(pebble.TableFilter, second, []byte("other")) {
		t.Error("the writer's second filter lost its key")
	}
	if v := takeViolations(); v != nil {
		t.Errorf("violations of a correct plugin: %s", v)
	}
}

// TestPluginViolations: what a broken plugin does is queued as protocol
// lines, and its failed build is a filter answering maybe.
func TestPluginViolations(t *testing.T) {
	buildPlugin(t, "misbehave")
	probed, f := newPolicy(&Bloom{Plugin: "broken"})
	if f != nil {
		t.Fatal(f)
	}
	defer probed.free()
	w := probed.NewWriter(pebble.TableFilter)
	w.AddKey([]byte("abc"))
	filter := w.Finish(nil)
	if !bytes.Equal(filter, noFilter) || !probed.MayContain(pebble.TableFilter, filter, []byte("zzz")) {
		t.Errorf("a failed build: %q", filter)
	}
	v := string(takeViolations())
	if !strings.Contains(v, "violation ") || !strings.Contains(v, "build") || !strings.HasSuffix(v, "\n") {
		t.Errorf("violations: %q", v)
	}
	l, err := ParsePolicyList([]byte("bloom(bits=10,whole_key=0,prefix=liar)"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := l[0].Extractor.PrefixLen(Point, []byte("abc")); ok {
		t.Error("the liar's prefix past the key's end was taken")
	}
	if v := string(takeViolations()); !strings.Contains(v, "prefix_len") {
		t.Errorf("the liar's violation: %q", v)
	}
}
