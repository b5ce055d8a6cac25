#!/usr/bin/env python3
import csv, sys, collections
rows = list(csv.DictReader(open(sys.argv[1]), delimiter='\t'))
mods = collections.OrderedDict()
for r in rows:
    mods.setdefault((r['module'], r['makefile_var']), []).append(r)
cat = collections.defaultdict(list)
for (m, v), rs in mods.items():
    d = [r for r in rs if r['request'] in ('default', '-')][0]
    if d['build'] != 'ok':
        cat['build_' + d['build']].append(m if m != '-' else v)
        continue
    key = d['run']
    if key == 'timeout' and d['value'] not in ('-', ''):
        key = 'solved_recount_cut'
    cat[key].append('%s(%ss)' % (m, d['wall_s']) if key.startswith('solved') else m)
for k, v in sorted(cat.items()):
    print('%s: %d: %s' % (k, len(v), ' '.join(v)))
print('rows:', len(rows))
opt = [r for r in rows if r['request'] not in ('default', '-', 'notiers')]
print('option rows:', len(opt), 'solved:', sum(r['run'] == 'solved' for r in opt))
nt = [r for r in rows if r['request'] == 'notiers']
print('notiers rows:', len(nt), 'solved:', sum(r['run'] == 'solved' for r in nt), ' '.join(r['module'] + ':' + r['run'] for r in nt))
