#!/usr/bin/env python3
"""sorted_map.py -- the smallest engine of filterlab's engine protocol
(docs/protocol.md): a sorted map in memory, with no SSTs and no
filters, so every filter counter is exactly 0.  It is the protocol's test
double and the template to copy for an adapter of your own engine:

    filterlab replay workloads/basic.wl --engine "cmd:python3 examples/engines/sorted_map.py"

One request loop, one function per verb; every judgement is filterlab's."""
import bisect
import re
import sys

TOKEN = re.compile(r'(?:[^ "]|"(?:[^"\\]|\\.)*")+')
COUNTERS = ("point.considered point.unfiltered point.positive point.negative point.false_positive "
            "prefix.considered prefix.unfiltered prefix.positive prefix.negative prefix.false_positive").split()


def decode(tok):
    """A byte string as the workload format writes it: bare or quoted."""
    if not tok.startswith('"'):
        return tok.encode()
    out, i, body = bytearray(), 0, tok[1:-1]
    while i < len(body):
        c = body[i]
        if c == '\\':
            e = body[i + 1]
            if e == 'x':
                out.append(int(body[i + 2:i + 4], 16))
                i += 4
                continue
            out += {'n': b'\n', 't': b'\t'}.get(e, e.encode())
            i += 2
            continue
        out += c.encode()
        i += 1
    return bytes(out)


def encode(b):
    if b and all(0x21 <= c <= 0x7e and c not in b'"\\=' for c in b):
        return b.decode()
    return '"' + ''.join(chr(c) if 0x20 <= c <= 0x7e and c not in b'"\\' else
                         '\\' + chr(c) if c in b'"\\' else '\\x%02x' % c for c in b) + '"'


class SortedMap:
    def __init__(self):
        self.keys, self.vals, self.extractor = [], {}, False

    def put(self, k, v):
        if k not in self.vals:
            bisect.insort(self.keys, k)
        self.vals[k] = v

    def delete(self, k):
        if self.vals.pop(k, None) is not None:
            self.keys.remove(k)

    def ascending(self, start):
        for k in self.keys[bisect.bisect_left(self.keys, start):]:
            yield k, self.vals[k]

    # ---- one function per verb: args are the request's words after the verb
    def do_open(self, args):                        # a map that lives as long as the process
        # a prefix extractor makes seeks prefix-mode by default: not this engine's
        self.extractor = any('prefix=' in a for a in args if a.startswith(('policies=', 'compactor=')))
        return 'ok'
    def do_set_options(self, args): return self.do_open(['dir'] + args)
    def do_close(self, args): return 'ok'
    def do_metrics(self, args): return 'ok ' + ' '.join(c + '=0' for c in COUNTERS)
    def do_flush(self, args): return 'ok'
    def do_compact(self, args): return 'ok'
    def do_put(self, args): self.put(decode(args[0]), decode(args[1])); return 'ok'
    def do_del(self, args): self.delete(decode(args[0])); return 'ok'

    def do_delrange(self, args):
        start, end = decode(args[0]), decode(args[1])
        for k in [k for k in self.keys if start <= k < end]:
            self.delete(k)
        return 'ok'

    def do_get(self, args):
        v = self.vals.get(decode(args[0]))
        return 'ok none' if v is None else 'ok value ' + encode(v)

    def do_multiget(self, args):
        keys = [decode(a) for a in args if not a.startswith('ctx=')]
        return '\n'.join(['none' if self.vals.get(k) is None else 'value ' + encode(self.vals[k])
                          for k in keys] + ['ok'])

    def entries(self, pairs):
        return '\n'.join(['entry %s %s' % (encode(k), encode(v)) for k, v in pairs] + ['ok'])

    def do_scan(self, args):
        end = decode(args[1])
        return self.entries((k, v) for k, v in self.ascending(decode(args[0])) if k < end)

    def do_scan_prefix(self, args):
        p = decode(args[0])
        return self.entries((k, v) for k, v in self.ascending(p) if k.startswith(p))

    def seek(self, args, backward):
        key, n, prefix = decode(args[0]), 1, self.extractor
        for a in args[1:]:
            if a.startswith('n='):
                n = int(a[2:])
            if a.startswith('prefix='):
                prefix = a == 'prefix=1'
        if prefix:
            return 'err unsupported a prefix-mode seek: this engine has no prefix extractor'
        if backward:
            i = bisect.bisect_right(self.keys, key)
            return self.entries((k, self.vals[k]) for k in self.keys[max(0, i - n):i][::-1])
        return self.entries(list(self.ascending(key))[:n])

    def do_seek(self, args): return self.seek(args, False)
    def do_seek_for_prev(self, args): return self.seek(args, True)


def main():
    db = SortedMap()
    for line in sys.stdin:
        words = TOKEN.findall(line.rstrip('\n'))
        verb, args = (words[0], words[1:]) if words else ('', [])
        if verb == 'hello':
            reply = ('ok 1 sorted-map 1.0 caps=put,del,delrange,get,multiget,scan,scan_prefix,'
                     'seek,seek_for_prev,flush,compact,set_options counters=' + ','.join(COUNTERS))
        elif verb == 'quit':
            print('ok', flush=True)
            return
        elif hasattr(db, 'do_' + verb):
            try:
                reply = getattr(db, 'do_' + verb)(args)
            except (IndexError, ValueError) as e:
                reply = 'err invalid %s: %s' % (verb, e)
        else:
            reply = 'err unsupported %s' % verb
        print(reply, flush=True)


if __name__ == '__main__':
    main()
