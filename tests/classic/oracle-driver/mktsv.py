#!/usr/bin/env python3
"""Turn raw*.txt lines (key=value TSV from run_one.sh + oracle_hook.c) into tests/classic/oracle.tsv."""
import sys, re, os, glob
games = [(l.split() + [''])[:2] for l in open('/tmp/oracle-games.txt') if l.strip()]
COLS = ['module', 'makefile_var', 'build', 'request', 'run', 'wall_s', 'bound_s', 'vlimit_kb', 'game_name', 'dbname', 'option', 'num_options',
        'partizan', 'loopy', 'tier', 'symmetries', 'num_positions', 'initial_tier', 'initial_tier_position',
        'initial_position', 'value', 'remoteness', 'raw_value', 'raw_remoteness', 'seconds',
        'an_total', 'an_win', 'an_lose', 'an_tie', 'an_draw', 'an_prim_win', 'an_prim_lose', 'an_prim_tie', 'an_moves',
        'db', 'db_win', 'db_lose', 'db_tie', 'db_draw',
        'reach', 'reach_win', 'reach_lose', 'reach_tie', 'reach_draw', 'reach_undecided',
        'reach_prim_win', 'reach_prim_lose', 'reach_prim_tie', 'reach_edges', 'reach_bad_child', 'note']
rows = {}
order = []
for f in sys.argv[2:]:
    for line in open(f, errors='replace'):
        line = line.rstrip('\n')
        if not line.startswith('exe='):
            continue
        d = {}
        for kv in line.split('\t'):
            if '=' in kv:
                k, v = kv.split('=', 1)
                d.setdefault(k, v)
        key = (d['exe'], d['req_option'])
        if key not in rows:
            order.append(key)
        rows[key] = d  # later files override earlier ones (reruns with a longer bound)

def note_for(d):
    log = '/work/classic-oracle/logs/%s.%s.out' % (d['exe'], d['req_option'])
    txt = open(log, errors='replace').read() if os.path.exists(log) else ''
    txt = re.sub(r'\x1b\[[0-9;]*[A-Za-z]|\x1b\[?[su]', '', txt)
    txt = txt.replace('No Errors Found!', '')
    pats = [r'Error[^\n]*', r'ERROR[^\n]*', r'Sorry[^\n]*', r'Segmentation[^\n]*', r'[Ii]nvalid[^\n]*', r'[Cc]ould not[^\n]*']
    for p in pats:
        m = re.search(p, txt)
        if m:
            return m.group(0).strip().replace('\t', ' ')[:160]
    return ''

out = [ '\t'.join(COLS) ]
byexe = {}
for key in order:
    byexe.setdefault(key[0], []).append(key)
for var, exe in games:
    if not exe:
        out.append('\t'.join(['-', var, 'no_target'] + ['-'] * (len(COLS) - 4) + ['the CGAMES entry $(%s_EXE) is empty: no game binary is defined for it' % var]))
        continue
    if exe == 'mcon':
        out.append('\t'.join([exe, var, 'fail'] + ['-'] * (len(COLS) - 4) + ['C++; not in text_all; g++ errors: PrintMove undeclared, MoveToString conflicting declaration']))
        continue
    keys = byexe.get(exe, [])
    if not keys:
        out.append('\t'.join([exe, var, 'ok', 'default', 'not_run'] + ['-'] * (len(COLS) - 6) + ['']))
        continue
    def sortkey(k):
        return (0, 0) if k[1] == 'default' else ((1, int(k[1])) if k[1].isdigit() else (2, 0))
    for key in sorted(keys, key=sortkey):
        d = dict(rows[key])
        run = d['run']
        st = d.get('status', '')
        if run == 'ok' and st == 'solved' and d.get('value') == 'undecided':
            r = 'solved_start_undecided'
        elif run == 'ok' and st == 'solved':
            r = 'solved'
        elif run == 'ok' and st == 'not_solved':
            r = 'classic_exit'
        elif run == 'timeout_or_killed' and d.get('value') not in (None, '', 'undecided'):
            r = 'solved_recount_cut'
        elif run == 'timeout_or_killed':
            r = 'timeout' if float(d['wall']) >= float(d.get('bound') or 20) - 0.5 else 'killed'
        elif run == 'ok' and not st:
            r = 'no_report'
        else:
            r = run if not st or st == 'solved' else run + '_' + st
        d['run'] = r
        d['module'] = exe; d['makefile_var'] = var; d['build'] = 'ok'; d['request'] = key[1]
        d['wall_s'] = d['wall']
        d['bound_s'] = d.get('bound') or '20'
        d['vlimit_kb'] = d.get('vlimit_kb') or '4000000'
        d['game_name'] = d.get('name', '-')
        d['db'] = d.get('db', '-')
        d['note'] = note_for(d) if r != 'solved' else ''
        if r == 'solved_start_undecided':
            d['note'] = (d['note'] + ' ' if d['note'] else '') + "Classic's solve returned but its database holds no value for the start"
        out.append('\t'.join(str(d.get(c, '-')).replace('\t', ' ') for c in COLS))
open(sys.argv[1], 'w').write('\n'.join(out) + '\n')
