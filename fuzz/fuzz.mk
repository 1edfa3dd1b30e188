# fuzz/fuzz.mk -- libFuzzer harnesses (SPEC 13), included by the Makefile.
#
#   make fuzz            build every harness with clang's libFuzzer, ASan and
#                        UBSan (build/fuzz/) and fuzz each one for FUZZ_SECONDS
#                        (60) with -fork=FUZZ_JOBS (all cores); crashes go to
#                        fuzz/findings/HARNESS-*; exits non-zero if any appears
#   make fuzz-regress    replay fuzz/corpus/HARNESS/ and fuzz/findings/HARNESS-*
#                        through the standalone driver, ASan+UBSan build
#   make fuzz-corpus     regenerate the seed corpora (fuzz/make_corpus.sh)
#   make fuzz-merge      add to fuzz/corpus/HARNESS/ the inputs of the last
#                        campaigns (build/fuzz/work/) that cover new edges
#   make fuzz-build      just build the libFuzzer binaries
#
# The same harness sources also link against fuzz/driver.c: with $(CC)
# into build/fuzz-regress/ and with the ASan build into
# build/fuzz-regress/asan/.  `make check` builds both and tests/run.sh
# replays every corpus with each.

FUZZ_HARNESSES := fuzz_ops fuzz_filter_block fuzz_sst fuzz_manifest fuzz_workload fuzz_spec fuzz_extractor \
                  fuzz_slatedb_sst fuzz_pebble_sst
# fuzz_rocksdb drives RocksDB: only when filterlab is built with it
ifeq ($(ROCKSDB),1)
FUZZ_HARNESSES += fuzz_rocksdb
endif
FUZZ_SECONDS   ?= 60
FUZZ_JOBS      ?= $(shell nproc 2>/dev/null || echo 1)
FUZZ_CC        ?= clang
FUZZ_SAN       := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_CFLAGS    := -O1 -fsanitize=fuzzer-no-link $(FUZZ_SAN)

FUZZ_BINS      := $(FUZZ_HARNESSES:%=$(BUILD)/fuzz/%)
FUZZ_REG_BINS  := $(FUZZ_HARNESSES:%=$(BUILD)/fuzz-regress/%)
FUZZ_AREG_BINS := $(FUZZ_HARNESSES:%=$(BUILD)/fuzz-regress/asan/%)
FUZZ_CXX       ?= clang++
FUZZ_LIB_OBJS  := $(LIB_SRCS:%.c=$(BUILD)/fuzz/obj/%.o) $(if $(filter 1,$(LEVELDB)),$(BUILD)/fuzz/obj/$(LEVELDB_SHIM).o)

.PHONY: fuzz fuzz-build fuzz-regress fuzz-regress-build fuzz-corpus fuzz-merge

# ---- libFuzzer binaries: everything instrumented for coverage --------------
$(BUILD)/fuzz/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(BASE) $(FUZZ_CFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/fuzz/obj/%.o: %.cc
	@mkdir -p $(dir $@)
	$(FUZZ_CXX) $(CXXBASE) $(FUZZ_CFLAGS) -fno-sanitize=vptr,function -c $< -o $@

# -rdynamic: FILTERLAB_FUZZ_PLUGINS resolve the ABI against the binary.
$(BUILD)/fuzz/%: $(BUILD)/fuzz/obj/fuzz/%.o $(BUILD)/fuzz/obj/fuzz/fuzz_env.o $(BUILD)/fuzz/obj/fuzz/fuzz_decode.o \
		$(FUZZ_LIB_OBJS)
	$(FUZZ_CC) -fsanitize=fuzzer $(FUZZ_SAN) -rdynamic $^ -o $@ $(LDLIBS)

fuzz-build: deps $(FUZZ_BINS)

# ---- the standalone driver: plain $(CC) and the ASan+UBSan build ------------
$(BUILD)/fuzz-regress/%: $(BUILD)/obj/fuzz/%.o $(BUILD)/obj/fuzz/driver.o $(BUILD)/obj/fuzz/fuzz_env.o \
		$(BUILD)/obj/fuzz/fuzz_decode.o $(LIB_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(OPT) -rdynamic $^ -o $@ $(LDLIBS)

$(BUILD)/fuzz-regress/asan/%: $(BUILD)/asan/obj/fuzz/%.o $(BUILD)/asan/obj/fuzz/driver.o \
		$(BUILD)/asan/obj/fuzz/fuzz_env.o $(BUILD)/asan/obj/fuzz/fuzz_decode.o $(ALIB_OBJS)
	@mkdir -p $(dir $@)
	$(ASAN_CC) $(ASANFL) -rdynamic $^ -o $@ $(LDLIBS)

fuzz-regress-build: deps $(FUZZ_REG_BINS) $(FUZZ_AREG_BINS)

# make check replays the corpora (tests/run.sh, section "fuzz corpora").
check-build: fuzz-regress-build

fuzz-regress: fuzz-regress-build
	@fail=0; for h in $(FUZZ_HARNESSES); do \
	    set -- fuzz/corpus/$$h; for f in fuzz/findings/$$h-*; do [ -f "$$f" ] && set -- "$$@" "$$f"; done; \
	    printf '%-18s ' $$h; \
	    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	        $(BUILD)/fuzz-regress/asan/$$h "$$@" 2> $(BUILD)/fuzz-regress/$$h.log || \
	        { fail=1; echo "FAILED (log: $(BUILD)/fuzz-regress/$$h.log)"; tail -n 30 $(BUILD)/fuzz-regress/$$h.log; }; \
	done; exit $$fail

# ---- campaigns and corpora -------------------------------------------------
fuzz: fuzz-build
	@FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_JOBS=$(FUZZ_JOBS) sh fuzz/run.sh $(FUZZ_HARNESSES)

$(BUILD)/fuzz/seedtool: $(BUILD)/obj/fuzz/seedtool.o $(LIB_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(OPT) $^ -o $@ $(LDLIBS)

fuzz-corpus: all $(BUILD)/fuzz/seedtool
	sh fuzz/make_corpus.sh

fuzz-merge: fuzz-build
	@for h in $(FUZZ_HARNESSES); do \
	    mkdir -p build/fuzz/work/$$h; \
	    $(BUILD)/fuzz/$$h -merge=1 fuzz/corpus/$$h build/fuzz/work/$$h > $(BUILD)/fuzz/$$h.merge.log 2>&1 || \
	        { echo "$$h: merge failed (log: $(BUILD)/fuzz/$$h.merge.log)"; exit 1; }; \
	    grep -E 'MERGE-OUTER: [0-9]+ new files' $(BUILD)/fuzz/$$h.merge.log | sed "s/^/$$h: /"; \
	done
