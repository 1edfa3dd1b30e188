#!/usr/bin/env python3
"""faulty.py MODE -- the sorted map of examples/engines/sorted_map.py with one
fault, for tests/cli/engine_protocol.sh: each mode must give the finding or
error that docs/protocol.md documents.

  lie         the second get of a present key answers another value (P2)
  hang        the first get never answers (P10 under --call-timeout); with
              a second argument, a file, it makes that file first (to say
              that it hangs now)
  die         the first get after a flush writes to stderr and exits 3 (P10)
  segv        the first get kills the adapter with SIGSEGV (P10)
  garble      a get answers `yes` (exit 2, naming the request and the reply)
  version     the handshake speaks protocol version 2 (exit 2)
  noprefix    caps= leaves out scan_prefix (exit 2 at the first scan_prefix)
  failput     the fifth put answers `err io disk full` (an engine error)
  violation   the first get is answered after a `violation` line: a plugin
              extractor inside the adapter broke its contract (P7)
  probe       caps= has probes, and a get's probe line has a 15-digit hash
              (exit 2, naming the request and the line)
  checks      counters= has checks.positive and checks.negative, and its
              own statistic counts a filter check that said no on every get,
              though it reports no SST filter probe (P3)
"""
import os
import signal
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'examples', 'engines'))
import sorted_map  # noqa: E402

MODE = sys.argv[1]
HANGING = sys.argv[2] if len(sys.argv) > 2 else None


class Faulty(sorted_map.SortedMap):
    gets = puts = 0
    flushed = False

    def do_flush(self, args):
        self.flushed = True
        return super().do_flush(args)

    def do_put(self, args):
        Faulty.puts += 1
        if MODE == 'failput' and Faulty.puts == 5:
            return 'err io disk full'
        return super().do_put(args)

    def do_metrics(self, args):
        if MODE == 'checks':
            return 'ok checks.positive=0 checks.negative=%d' % Faulty.checked
        return super().do_metrics(args)

    checked = 0

    def do_get(self, args):
        reply = super().do_get(args)
        if MODE == 'checks':
            Faulty.checked += 1
        if MODE == 'hang':
            if HANGING:
                open(HANGING, 'w').close()
            time.sleep(100000)
        if MODE == 'die' and self.flushed:
            sys.stderr.write('adapter: panic: the disk is on fire\n')
            sys.stderr.flush()
            sys.exit(3)
        if MODE == 'segv':
            os.kill(os.getpid(), signal.SIGSEGV)
        if MODE == 'garble':
            return 'yes'
        if MODE == 'probe':
            print('probe 8 0123456789abcde maybe', flush=True)
        if MODE == 'violation' and not Faulty.gets:
            Faulty.gets += 1
            print('violation extractor prefix_len /x/liar.so "extractor \\"liar\\" of kind \'liar\' from plugin '
                  '/x/liar.so" "prefix_len returned 9 for a 4-byte target (must be <= its length)"', flush=True)
        if MODE == 'lie' and reply.startswith('ok value'):
            Faulty.gets += 1
            if Faulty.gets == 2:
                return 'ok value a-lie'
        return reply


def main():
    db = Faulty()
    for line in sys.stdin:
        words = sorted_map.TOKEN.findall(line.rstrip('\n'))
        verb, args = (words[0], words[1:]) if words else ('', [])
        if verb == 'hello':
            caps = 'put,del,delrange,get,scan,flush,compact' + ('' if MODE == 'noprefix' else ',scan_prefix')
            caps += ',probes' if MODE == 'probe' else ''
            counters = 'checks.positive,checks.negative' if MODE == 'checks' else ''
            reply = 'ok %d faulty 1.0 caps=%s counters=%s' % (2 if MODE == 'version' else 1, caps, counters)
        elif verb == 'quit':
            print('ok', flush=True)
            return
        elif hasattr(db, 'do_' + verb):
            reply = getattr(db, 'do_' + verb)(args)
        else:
            reply = 'err unsupported %s' % verb
        print(reply, flush=True)


if __name__ == '__main__':
    main()
