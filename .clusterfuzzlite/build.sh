#!/bin/bash -eu
# build.sh -- ClusterFuzzLite / OSS-Fuzz build of filterlab's harnesses.
# Runs in $SRC/filterlab with $CC, $CFLAGS, $CXX (which links: libFuzzer
# is C++), $CXXFLAGS and
# $LIB_FUZZING_ENGINE set by the base image.  For each fuzz/fuzz_*.c
# harness, writes to $OUT the binary, its dictionary and its seed corpus
# (HARNESS_seed_corpus.zip of fuzz/corpus/HARNESS/).
#
# xxHash is linked statically: the fuzzers run in another image, which does
# not have libxxhash.  XXH_STATIC_LINKING_ONLY declares XXH3 on xxHash 0.7.
FLAGS="-std=c11 -D_GNU_SOURCE -DXXH_STATIC_LINKING_ONLY"
OBJ=$WORK/filterlab-obj
mkdir -p "$OBJ"
LIB_OBJS=""
# adapters/ too: the registry the runner asks for its default engine, and
# the readers of SlateDB's and Pebble's files their harnesses drive.
# Without FL_HAVE_ROCKSDB and FL_HAVE_LEVELDB those engines build as the
# stubs that say how to get them (the image has neither library), and the
# C++ shim of LevelDB is left out.
for src in engine/*.c workloads/*.c model/*.c properties/*.c fuzz/fuzz_env.c fuzz/fuzz_decode.c \
           adapters/*.c adapters/*/*.c; do
    obj="$OBJ/$(echo "$src" | tr / _).o"
    $CC $CFLAGS $FLAGS -c "$src" -o "$obj"
    LIB_OBJS="$LIB_OBJS $obj"
done
for harness in fuzz/fuzz_*.c; do
    name=$(basename "$harness" .c)
    # fuzz_env and fuzz_decode are shared code; fuzz_rocksdb needs RocksDB,
    # which the image does not have
    case $name in fuzz_env|fuzz_decode|fuzz_rocksdb) continue ;; esac
    $CC $CFLAGS $FLAGS -c "$harness" -o "$OBJ/$name.o"
    $CXX $CXXFLAGS $LIB_FUZZING_ENGINE -rdynamic "$OBJ/$name.o" $LIB_OBJS \
        -Wl,-Bstatic -lxxhash -Wl,-Bdynamic -ldl -lm -o "$OUT/$name"
    if [ -f "fuzz/$name.dict" ]; then cp "fuzz/$name.dict" "$OUT/$name.dict"; fi
    (cd "fuzz/corpus/$name" && zip -q -r "$OUT/${name}_seed_corpus.zip" .)
done
