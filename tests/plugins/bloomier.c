/*
 * bloomier.c -- firstbyte.c's policy (and its extractor "first1") with the
 * kind "bloomier": a plugin whose spec begins with "bloom" and is not the
 * built-in bloom.  The checker must take it for a plugin, as any other
 * (tests/cli/replay_plugin.sh).
 *
 * Build: cc -shared -fPIC -I<filterlab>/engine bloomier.c -o bloomier.so
 */
#define FIRSTBYTE_KIND "bloomier"
#include "firstbyte.c"
