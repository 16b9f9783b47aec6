#!/usr/bin/env python3
"""Scores grade's results for a blind tutor corpus against its expect.tsv.

usage: score.py OUT_DIR EXPECT.tsv [EXPECT.tsv...]

expect.tsv: one program a line, tab-separated: name, exercise id, expectation, the part the slip
first shows on (may be empty), the slip in plain words. Expectation:
  right          full marks, and no diagnosis and no note on any part;
  right:float    a right program computing in float: full marks, and no word but float_precision
                 (true of it) on a correct part;
  ID             a catalogue mistake: named right when the ids named are exactly {ID};
  A+B            two slips: named right when exactly {A, B}, partly when a non-empty subset;
  X|Y            either expectation (X, Y as above) is right: where no input the exercise can
                 draw tells them apart (dividing by C - 1 is summing when C is 2);
  none           a classic slip no catalogue entry expresses: any id named is named wrong;
  concept        a wrong boolean or choice (a misconception the exercise's explanation answers,
                 no computing slip): any id named is named wrong;
  invisible      a slip the inputs cannot show: any id named is named wrong;
  invisible:ID   a catalogue slip the book's inputs cannot show: ID may be named, nothing else.
A diagnosis or note on a part graded correct is a false word, whatever the program. The tally
is per group (right, catalogue, pair, none, concept, invisible). Exit status 1 on any false diagnosis
(named wrong, or a word beside a right part) or a right program short of full marks.
"""
import json
import os
import sys


def read_expectations(paths):
    rows = []
    for path in paths:
        with open(path, encoding='utf-8') as f:
            for number, line in enumerate(f, 1):
                line = line.rstrip('\n')
                if not line.strip() or line.startswith('#'):
                    continue
                cols = line.split('\t')
                if len(cols) < 3:
                    sys.exit(f'{path}:{number}: want name, exercise, expectation, part, slip (tab-separated)')
                cols += [''] * (5 - len(cols))
                rows.append(dict(name=cols[0], exercise=cols[1], expect=cols[2], part=cols[3], slip=cols[4],
                                 where=f'{path}:{number}'))
    return rows


def named_ids(part):
    ids = set()
    if 'diagnosis' in part:
        ids.add(part['diagnosis']['id'])
    for d in part.get('diagnoses', []):
        ids.add(d['id'])
    return ids


def group_of(expect):
    if expect in ('right', 'right:float'):
        return 'right'
    if expect in ('none', 'concept'):
        return expect
    if expect.startswith('invisible'):
        return 'invisible'
    return 'pair' if '+' in expect.split('|')[0] else 'catalogue'


def judge(row, exercise):
    """Returns (verdict, false words, details)."""
    expect = row['expect']
    ids = set()
    false_words = []
    float_ok = {'float_precision'} if expect == 'right:float' else set()
    for p in exercise['parts']:
        ids |= named_ids(p)
        if p['verdict'] == 'correct' and (named_ids(p) - float_ok or p.get('notes')):
            false_words.append(f"{p['name']} is correct yet carries {sorted(named_ids(p))} {p.get('notes', [])}")
    group = group_of(expect)
    if group == 'right':
        full = exercise['score'] == exercise['max_score']
        # a note in a correct part's message ("correct to 6 decimal places; note: ... float") is a
        # word too, true only of a float program
        noted = [p for p in exercise['parts'] if expect != 'right:float' and '; note:' in p['message']]
        words = [f"{p['name']}: {sorted(named_ids(p))} {p.get('notes', [])}" for p in exercise['parts']
                 if named_ids(p) - float_ok or p.get('notes')]
        words += [f"{p['name']}: {p['message'][:120]}" for p in noted]
        if full and not words:
            return 'full-marks', [], ''
        false_words = words
        return ('full-marks' if full else 'short'), false_words, f"score {exercise['score']}/{exercise['max_score']}"
    if group in ('none', 'concept', 'invisible'):
        allowed = {expect.split(':', 1)[1]} if ':' in expect else set()
        if not ids:
            return 'abstained', false_words, ''
        if ids <= allowed:
            return 'named-right', false_words, ''
        return 'named-wrong', false_words, f'named {sorted(ids)}'
    alternatives = [set(e.split('+')) for e in expect.split('|')]
    wanted = alternatives[0]
    if not ids:
        return 'abstained', false_words, ''
    if ids in alternatives:
        return 'named-right', false_words, ''
    if any(ids < a for a in alternatives):
        return 'named-one', false_words, f'named {sorted(ids)} of {sorted(wanted)}'
    return 'named-wrong', false_words, f'named {sorted(ids)}'


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out = sys.argv[1]
    rows = read_expectations(sys.argv[2:])
    tally = {}
    failures = 0
    for row in rows:
        path = os.path.join(out, 'results', row['name'] + '.json')
        group = group_of(row['expect'])
        if not os.path.exists(path):
            print(f"{row['name']:28} NO RESULT ({path})")
            failures += 1
            continue
        with open(path, encoding='utf-8') as f:
            result = json.load(f)
        found = [x for x in result['exercises'] if x['id'] == row['exercise']]
        if not found:
            print(f"{row['name']:28} exercise {row['exercise']} not in the results")
            failures += 1
            continue
        exercise = found[0]
        verdict, false_words, details = judge(row, exercise)
        bad = bool(false_words) or verdict in ('named-wrong', 'short')
        failures += bad
        tally.setdefault(group, {}).setdefault(verdict, 0)
        tally[group][verdict] += 1
        if false_words:
            tally[group].setdefault('false-words', 0)
            tally[group]['false-words'] += 1
        mark = 'FALSE ' if bad else ''
        print(f"{row['name']:28} {row['exercise']:26} {row['expect']:30} {mark}{verdict} {details}")
        for w in false_words:
            print(f'      false: {w}')
        if group != 'right':
            for p in exercise['parts']:
                for n in p.get('notes', []):
                    print(f"      note on {p['name']}: {n[:160]}")
                if p['verdict'] == 'correct' and '; note:' in p['message']:
                    print(f"      note beside the correct {p['name']}: {p['message'][:160]}")
    print()
    print(f"{'group':10} {'programs':>8}  verdicts")
    for group in ('right', 'catalogue', 'pair', 'none', 'concept', 'invisible'):
        if group in tally:
            counts = tally[group]
            n = sum(v for k, v in counts.items() if k != 'false-words')
            print(f"{group:10} {n:8}  " + ', '.join(f'{k} {v}' for k, v in sorted(counts.items())))
    print(f'{failures} false diagnoses or right programs short of full marks')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
