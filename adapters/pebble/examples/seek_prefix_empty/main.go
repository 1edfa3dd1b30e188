// seek_prefix_empty reproduces a Pebble bug filterlab found: a
// SeekPrefixGE whose key has an empty prefix (Comparer.Split returns 0:
// the empty key under any Split, DefaultComparer's included) does not
// iterate in prefix mode. The iterator's copy of the prefix is an empty
// slice made from a nil buffer (iterator.go, SeekPrefixGE:
// i.prefixOrFullSeekKey[:prefixLen]), the merging and level iterators
// take a nil prefix to mean "not prefix iteration" (merging_iter.go:
// `if m.prefix != nil`), and SeekPrefixGE("") returns every key of the
// database, as SeekGE("") would, where only the empty key has the empty
// prefix. Whether the buffer is nil depends on the iterator's pooled
// allocation, so the same call can also answer right.
//
// Exit status: 1 when Pebble returns a key without the seek key's prefix
// (the bug), 0 when it does not, 2 on an error.
//
//	go run -tags pebblegozstd ./examples/seek_prefix_empty
package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
)

func main() {
	db, err := pebble.Open("db", &pebble.Options{FS: vfs.NewMem(), Logger: quiet{}})
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(2)
	}
	defer db.Close()
	for _, k := range []string{"a1", "b2"} {
		if err := db.Set([]byte(k), []byte("v"), pebble.Sync); err != nil {
			fmt.Println("error:", err)
			os.Exit(2)
		}
	}
	// The default Split is the whole key: only the empty key has the
	// empty prefix, and the database has no empty key.
	it, err := db.NewIter(nil)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(2)
	}
	defer it.Close()
	split := pebble.DefaultComparer.Split
	var wrong [][]byte
	for ok := it.SeekPrefixGE([]byte("")); ok; ok = it.Next() {
		if p := it.Key()[:split(it.Key())]; !bytes.Equal(p, nil) {
			wrong = append(wrong, bytes.Clone(it.Key()))
		}
	}
	if len(wrong) > 0 {
		fmt.Printf("bug: SeekPrefixGE(\"\") returned %d key(s) whose prefix is not \"\": %q\n", len(wrong), wrong)
		os.Exit(1)
	}
	fmt.Println("ok: SeekPrefixGE(\"\") returned no key of another prefix")
}

// quiet keeps Pebble's log lines ("Found 0 WALs") off stdout.
type quiet struct{}

func (quiet) Infof(string, ...any)           {}
func (quiet) Errorf(string, ...any)          {}
func (quiet) Fatalf(format string, a ...any) { panic(fmt.Sprintf(format, a...)) }
