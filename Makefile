# filterlab -- plain Makefile.  Output goes to build/.
#
#   make            build build/filterlab, the unit tests and libfilterlab.a
#   make check      install what is missing, build, run every test (plain and
#                   ASan+UBSan), replay the shipped workloads
#   make report     install what is missing, build, write the FP-rate report
#                   (CSV, gnuplot plots, index.html) to reports/out/
#   make bench      benchmarks (medians, ratios measured in one run)
#   make asan       the ASan+UBSan build in build/asan/
#   make install    PREFIX=/usr/local: bin/filterlab, include/filterlab/filter.h,
#                   lib/libfilterlab.a, lib/pkgconfig/filterlab.pc (a plugin
#                   builds with `cc -shared -fPIC $(pkg-config --cflags
#                   filterlab) my.c -o my.so`)
#   make clean

CC       ?= cc
ASAN_CC  ?= clang
PREFIX   ?= /usr/local
VERSION  := 0.1.0
BUILD    := build
OPT      ?= -O2
CFLAGS   ?=
WARN     := -Wall -Wextra -Werror
BASE     := -std=c11 -D_GNU_SOURCE -g $(WARN) -MMD -MP
LDLIBS   := -lxxhash -ldl -lm
ASANFL   := -O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

# RocksDB (SPEC 15): $(BUILD)/config.mk says whether rocksdb/c.h and
# librocksdb are there (ROCKSDB := 1).  It is remade at every run, after
# .ci/deps.sh has installed whatever is missing, and rewritten only when
# what it says changes (make then starts over with it).  With RocksDB,
# every build (plain, ASan, fuzz) compiles -DFL_HAVE_ROCKSDB (and the
# version its rocksdb/version.h says, FL_ROCKSDB_VERSION) and links
# -lrocksdb; without it the RocksDB engine and bench group say how to get it.
ifneq ($(MAKECMDGOALS),clean)
include $(BUILD)/config.mk
endif
ifeq ($(ROCKSDB),1)
BASE     += -DFL_HAVE_ROCKSDB -DFL_ROCKSDB_VERSION='"$(ROCKSDB_VERSION)"'
LDLIBS   += -lrocksdb
endif
# LevelDB (docs/leveldb.md): config.mk says whether leveldb/c.h,
# libleveldb and a C++ compiler are there (LEVELDB := 1).  With it every
# build compiles -DFL_HAVE_LEVELDB, adds the adapter's C++ shim
# (adapters/leveldb/leveldb_shim.cc: LevelDB's C++ API, for what its C API
# cannot do) and links -lleveldb; without it `--engine leveldb` says how to
# get it.
CXX      ?= c++
ASAN_CXX ?= clang++
CXXBASE  := -std=c++17 -g $(WARN) -MMD -MP
# (-fno-sanitize=vptr,function in the ASan and fuzz builds: the binaries link with
# the C driver, which does not bring UBSan's C++ runtime)
LEVELDB_SHIM := adapters/leveldb/leveldb_shim
ifeq ($(LEVELDB),1)
BASE     += -DFL_HAVE_LEVELDB
LDLIBS   += -lleveldb -lstdc++ -lpthread
endif
LEVELDB_USERS := adapters/leveldb/leveldb_engine adapters/leveldb/leveldb_policy adapters/leveldb/leveldb_tables \
                 adapters/leveldb/leveldb_space tests/test_leveldb_written
# Standalone reproducers of RocksDB bugs filterlab found (RocksDB's C API
# only; adapters/rocksdb/examples/), built beside filterlab with RocksDB.
ROCKSDB_EXAMPLES := $(if $(filter 1,$(ROCKSDB)),$(patsubst adapters/rocksdb/examples/%.c,$(BUILD)/examples/rocksdb_%,$(wildcard adapters/rocksdb/examples/*.c)))
ROCKSDB_USERS := adapters/rocksdb/rocksdb_engine adapters/rocksdb/rocksdb_options \
                 adapters/rocksdb/rocksdb_extractor \
                 tests/test_rocksdb \
                 bench/rocksdb_bench

# The engines under test: adapters/*.c (the registry) and one folder each.
ADAPTERS  := filterlab rocksdb proc slatedb leveldb pebble
# The plugin host the adapter programs link (adapters/proc/proc_host.h: the
# SlateDB adapter through Rust's FFI, the Pebble adapter through cgo):
# filterlab's call wrappers and registry (engine/), the byte-string printer
# (workloads/), the protocol's lines (adapters/proc/proc_line.c), and the
# host's own file.
HOST_ONLY := adapters/proc/proc_host.c
HOST_SRCS := $(wildcard engine/*.c workloads/*.c) adapters/proc/proc_line.c $(HOST_ONLY)
HOST_OBJS := $(HOST_SRCS:%.c=$(BUILD)/obj/%.o)
LIB_SRCS  := $(filter-out $(HOST_ONLY),$(wildcard engine/*.c workloads/*.c model/*.c properties/*.c adapters/*.c) \
             $(foreach a,$(ADAPTERS),$(wildcard adapters/$(a)/*.c)))
CLI_SRCS  := $(wildcard cli/*.c bench/*.c)
TEST_SRCS := $(wildcard tests/*.c)

LIB_OBJS  := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o) $(if $(filter 1,$(LEVELDB)),$(BUILD)/obj/$(LEVELDB_SHIM).o)
CLI_OBJS  := $(CLI_SRCS:%.c=$(BUILD)/obj/%.o)
TEST_OBJS := $(TEST_SRCS:%.c=$(BUILD)/obj/%.o)
ALIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/asan/obj/%.o) $(if $(filter 1,$(LEVELDB)),$(BUILD)/asan/obj/$(LEVELDB_SHIM).o)
ACLI_OBJS := $(CLI_SRCS:%.c=$(BUILD)/asan/obj/%.o)
ATEST_OBJS:= $(TEST_SRCS:%.c=$(BUILD)/asan/obj/%.o)

.PHONY: all check check-build report bench asan install clean deps slatedb-adapter pebble-adapter FORCE

all: deps $(BUILD)/filterlab $(BUILD)/tests/unit $(BUILD)/libfilterlab.a $(BUILD)/ldlibs slatedb-adapter pebble-adapter $(ROCKSDB_EXAMPLES)

# The SlateDB adapter (adapters/slatedb/: a Rust program that speaks the
# engine protocol; --engine slatedb), built by cargo into $(BUILD)/cargo
# with the committed Cargo.lock.  Without cargo, everything else builds and
# this says how to get it; --engine slatedb then says the same.
CARGO ?= cargo
HAVE_CARGO := $(shell command -v $(CARGO) > /dev/null 2>&1 && echo 1)
# SLATEDB_VERSION=0.14.1 also builds it against that older release (cargo
# feature slatedb-0-14) into $(BUILD)/cargo-0.14.1; FILTERLAB_SLATEDB=that
# binary runs it (docs/slatedb.md, "Two releases").
SLATEDB_FEATURE_0.14.1 := slatedb-0-14
slatedb-adapter: $(BUILD)/libfilterlab_host.a
ifeq ($(HAVE_CARGO),1)
	@FILTERLAB_HOST_LIB_DIR=$(abspath $(BUILD)) CARGO_TARGET_DIR=$(abspath $(BUILD)/cargo) $(CARGO) build --quiet --release --locked --bins --examples \
	    --manifest-path adapters/slatedb/Cargo.toml
ifneq ($(SLATEDB_VERSION),)
	@test -n "$(SLATEDB_FEATURE_$(SLATEDB_VERSION))" || { echo "SLATEDB_VERSION=$(SLATEDB_VERSION): the SlateDB adapter builds against 0.18.0 (always) and 0.14.1"; exit 2; }
	@FILTERLAB_HOST_LIB_DIR=$(abspath $(BUILD)) CARGO_TARGET_DIR=$(abspath $(BUILD)/cargo-$(SLATEDB_VERSION)) $(CARGO) build --quiet --release --locked --bins \
	    --features $(SLATEDB_FEATURE_$(SLATEDB_VERSION)) --manifest-path adapters/slatedb/Cargo.toml
	@echo "filterlab: the SlateDB $(SLATEDB_VERSION) adapter is $(BUILD)/cargo-$(SLATEDB_VERSION)/release/filterlab-slatedb (run it with FILTERLAB_SLATEDB=that path)"
endif
else
	@echo "filterlab: cargo not found: the SlateDB adapter (--engine slatedb) is not built;" \
	      "install Rust's cargo (apt-get install cargo, or https://rustup.rs) and run make again"
endif

# The Pebble adapter (adapters/pebble/: a Go program that speaks the engine
# protocol; --engine pebble), built by go with the committed go.sum into
# $(BUILD)/go (modules from the Go proxy; -tags pebblegozstd: no cgo zstd).
# It links the plugin host through cgo (cmd/filterlab-pebble/plugin.go
# says how: the whole archive, which cgo takes only with CGO_LDFLAGS_ALLOW;
# CGO_LDFLAGS says where it is).  go does not look at a C library's bytes
# to decide whether to link again: the archive's hash, set into the binary
# (main.hostArchive), does.  Without Go, everything else builds and
# this says how to get it; --engine pebble then says the same.
GO ?= go
HAVE_GO := $(shell command -v $(GO) > /dev/null 2>&1 && echo 1)
PEBBLE_CGO := CGO_ENABLED=1 CGO_LDFLAGS_ALLOW='-Wl,--(no-)?whole-archive' CGO_LDFLAGS='-L$(abspath $(BUILD))'
pebble-adapter: $(BUILD)/libfilterlab_host.a
ifeq ($(HAVE_GO),1)
	@mkdir -p $(BUILD)/go
	@cd adapters/pebble && GOFLAGS=-mod=readonly $(PEBBLE_CGO) \
	    $(GO) build -tags pebblegozstd -trimpath \
	    -ldflags "-X main.hostArchive=$$(cksum < $(abspath $(BUILD))/libfilterlab_host.a | cut -d' ' -f1)" \
	    -o $(abspath $(BUILD))/go/ ./cmd/filterlab-pebble ./examples/...
else
	@echo "filterlab: go not found: the Pebble adapter (--engine pebble) is not built;" \
	      "install Go 1.23 or newer (apt-get install golang-go, or https://go.dev/dl) and run make again"
endif

# Reading the Makefile remade config.mk, and .ci/deps.sh with it.
deps: $(BUILD)/config.mk

$(BUILD)/config.mk: FORCE
	@sh .ci/deps.sh
	@mkdir -p $(dir $@)
	@if printf '#include <rocksdb/c.h>\n' | $(CC) -E -x c - > /dev/null 2>&1 && \
	    [ -f "$$($(CC) -print-file-name=librocksdb.so)" ]; then \
	    dir=$$(printf '#include <rocksdb/c.h>\n' | $(CC) -E -x c - | \
	           sed -n 's|^# [0-9]* "\(.*\)/c\.h".*|\1|p' | head -n 1); \
	    echo 'ROCKSDB := 1'; \
	    printf 'ROCKSDB_VERSION := %s\n' "$$(sed -n 's/^#define ROCKSDB_\(MAJOR\|MINOR\|PATCH\) *\([0-9]*\).*/\2/p' \
	        "$$dir/version.h" 2> /dev/null | paste -sd. -)"; \
	    else echo 'ROCKSDB :='; fi > $@.new
	@if printf '#include <leveldb/c.h>\n' | $(CC) -E -x c - > /dev/null 2>&1 && \
	    [ -f "$$($(CC) -print-file-name=libleveldb.so)" ] && command -v $(CXX) > /dev/null 2>&1; then \
	    echo 'LEVELDB := 1'; else echo 'LEVELDB :='; fi >> $@.new
	@cmp -s $@.new $@ || mv $@.new $@; rm -f $@.new

# The version, in one place: --version and filterlab.pc.
$(BUILD)/obj/cli/main.o $(BUILD)/asan/obj/cli/main.o: BASE += -DFILTERLAB_VERSION='"$(VERSION)"'
$(BUILD)/obj/cli/main.o $(BUILD)/asan/obj/cli/main.o: Makefile

# What compiles differently with RocksDB is rebuilt when config.mk changes.
$(ROCKSDB_USERS:%=$(BUILD)/obj/%.o) $(ROCKSDB_USERS:%=$(BUILD)/asan/obj/%.o) \
$(ROCKSDB_USERS:%=$(BUILD)/fuzz/obj/%.o): $(BUILD)/config.mk
$(LEVELDB_USERS:%=$(BUILD)/obj/%.o) $(LEVELDB_USERS:%=$(BUILD)/asan/obj/%.o) \
$(LEVELDB_USERS:%=$(BUILD)/fuzz/obj/%.o): $(BUILD)/config.mk

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(BASE) $(OPT) $(CFLAGS) -c $< -o $@

$(BUILD)/asan/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(ASAN_CC) $(BASE) $(ASANFL) $(CFLAGS) -c $< -o $@

$(BUILD)/obj/%.o: %.cc
	@mkdir -p $(dir $@)
	$(CXX) $(CXXBASE) $(OPT) -c $< -o $@

$(BUILD)/asan/obj/%.o: %.cc
	@mkdir -p $(dir $@)
	$(ASAN_CXX) $(CXXBASE) $(ASANFL) -fno-sanitize=vptr,function -c $< -o $@

# The libraries filterlab links with, for tests that link a changed object
# with the others (tests/cli/engine_mutants.sh, leveldb.sh); the objects
# are $(BUILD)/objs, which the link of filterlab writes (those of this
# build, not whatever an older one left in build/obj).
$(BUILD)/ldlibs: Makefile $(BUILD)/config.mk
	@mkdir -p $(dir $@)
	@echo '$(LDLIBS)' > $@

$(BUILD)/libfilterlab.a: $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/examples/rocksdb_%: adapters/rocksdb/examples/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(WARN) $(OPT) $< -o $@ -lrocksdb

$(BUILD)/libfilterlab_host.a: $(HOST_OBJS)
	@rm -f $@
	ar rcs $@ $^

# -rdynamic: plugins resolve fl_buf_append and fl_registry_* against the
# binary; objects are linked whole so every ABI function is there.
$(BUILD)/filterlab: $(LIB_OBJS) $(CLI_OBJS)
	$(CC) $(OPT) -rdynamic $^ -o $@ $(LDLIBS)
	@echo '$^' > $(BUILD)/objs

$(BUILD)/tests/unit: $(LIB_OBJS) $(TEST_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(OPT) -rdynamic $^ -o $@ $(LDLIBS)

$(BUILD)/asan/filterlab: $(ALIB_OBJS) $(ACLI_OBJS)
	$(ASAN_CC) $(ASANFL) -rdynamic $^ -o $@ $(LDLIBS)

$(BUILD)/asan/tests/unit: $(ALIB_OBJS) $(ATEST_OBJS)
	@mkdir -p $(dir $@)
	$(ASAN_CC) $(ASANFL) -rdynamic $^ -o $@ $(LDLIBS)

asan: deps $(BUILD)/asan/filterlab $(BUILD)/asan/tests/unit

# make check: everything it tests is built first, a job per CPU (a fresh
# clone's build takes a third of its check), then tests/run.sh runs it all.
NPROC := $(shell nproc 2> /dev/null || echo 2)
check-build: all asan
check:
	@$(MAKE) --no-print-directory -j$(NPROC) check-build
	@sh tests/run.sh

report: deps $(BUILD)/filterlab
	@$(BUILD)/filterlab report $(REPORT_WORKLOADS) -o $(REPORT_OUT) $(REPORT_ARGS)

# Benchmarks: `filterlab bench` (bench/bench.h), every group, medians of
# BENCH_RUNS; the table on stdout, the rows in bench/out/results.csv.
# librocksdb-dev (which .ci/deps.sh installs for every target) is asked for
# again here as optional, so that a machine where the main install failed
# still benchmarks; built without it, the rocksdb group says it is skipped.
# BENCH_ARGS holds the options: by default --large, so that the scale
# group's 10,000,000-op replay (about a minute) prints its goal row (time
# per 10x ops) with the others; BENCH_ARGS=--quick for a smoke run,
# BENCH_ARGS= to leave it out.
BENCH_RUNS ?= 5
BENCH_ARGS ?= --large
bench: all
	@sh .ci/deps.sh --optional librocksdb-dev || true
	@mkdir -p bench/out
	$(BUILD)/filterlab bench --runs $(BENCH_RUNS) --csv bench/out/results.csv $(BENCH_ARGS)

# `filterlab report` without a workload runs the bundled one: found beside
# the binary (a build tree, or an install's ../share/filterlab) or here.
$(BUILD)/obj/cli/report.o $(BUILD)/asan/obj/cli/report.o: BASE += -DFL_DATADIR='"$(PREFIX)/share/filterlab"'

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/include/filterlab $(DESTDIR)$(PREFIX)/lib \
	    $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/share/filterlab
	install -m 755 $(BUILD)/filterlab $(DESTDIR)$(PREFIX)/bin/filterlab
	install -m 644 $(REPORT_WORKLOADS) $(DESTDIR)$(PREFIX)/share/filterlab/
	install -m 644 engine/filter.h $(DESTDIR)$(PREFIX)/include/filterlab/filter.h
	install -m 644 $(BUILD)/libfilterlab.a $(DESTDIR)$(PREFIX)/lib/libfilterlab.a
	printf '%s\n' 'prefix=$(PREFIX)' 'includedir=$${prefix}/include/filterlab' 'libdir=$${prefix}/lib' '' \
	    'Name: filterlab' 'Description: the filter plugin ABI of filterlab (filter.h); plugins link against nothing' \
	    'Version: $(VERSION)' 'Cflags: -I$${includedir}' 'Libs: -L$${libdir} -lfilterlab' \
	    'Libs.private: $(LDLIBS)' > $(DESTDIR)$(PREFIX)/lib/pkgconfig/filterlab.pc
	chmod 644 $(DESTDIR)$(PREFIX)/lib/pkgconfig/filterlab.pc

clean:
	rm -rf $(BUILD)

# Module rules kept beside their module.
-include fuzz/fuzz.mk
-include reports/reports.mk

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
