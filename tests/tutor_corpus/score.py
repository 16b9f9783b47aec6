#!/usr/bin/env python3
"""Scores grade's results for a blind tutor corpus against its expect.tsv.

usage: score.py [--strict] OUT_DIR EXPECT.tsv [EXPECT.tsv...]

--strict: every program must get exactly the verdict its expectation says (a slip expected named
and left unnamed fails too), as the e2e test of tests/tutor_corpus/undeclared/ asks.

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
  invisible:ID   a catalogue slip the book's inputs cannot show: ID may be named, nothing else;
  tape:KIND~WORDS  a slip no catalogue entry declares, that one change of KIND to the reference's
                 recorded computation makes (the error model): named right when every name said is
                 one change of that kind whose words hold WORDS, a tie when it is a tie that holds
                 such a change; any other name is named wrong;
  tape-tie:KIND~WORDS  the same, expected as a tie (the inputs cannot tell the change from others
                 giving the same numbers);
  none:ID        a slip nothing declares: ID, a word read off the value (a factor, a sign), true of
                 the program, may be said; any other name is named wrong.
A diagnosis whose words hold a number of 4 significant digits or more that the program did not
print is a leak of an expected value, and counts as a false word.
A diagnosis or note on a part graded correct is a false word, whatever the program. The tally
is per group (right, catalogue, pair, none, concept, invisible). Exit status 1 on any false diagnosis
(named wrong, or a word beside a right part) or a right program short of full marks.
"""
import json
import os
import re
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


def diagnoses_of(part):
    found = [part['diagnosis']] if 'diagnosis' in part else []
    return found + part.get('diagnoses', [])


def leaks(exercise):
    """Numbers of 4 significant digits or more in a diagnosis that the program did not print."""
    printed = ' '.join(str(p.get('given', '')) for p in exercise['parts'])
    found = []
    for p in exercise['parts']:
        for d in diagnoses_of(p):
            for number in re.findall(r'\d+(?:\.\d+)?(?:e[-+]?\d+)?', d['message']):
                digits = number.split('e')[0].replace('.', '').lstrip('0')
                if len(digits) >= 4 and number not in printed:
                    found.append(f"{p['name']}: {number} in {d['message'][:100]}")
    return found


def judge_tape(expect, exercise):
    kind, _, words = expect.split(':', 1)[1].partition('~')
    said = [d for p in exercise['parts'] for d in diagnoses_of(p)]
    if not said:
        return 'abstained', ''
    fits = lambda i, d: i.startswith(f'tape:{kind}:') and words in d['message']
    if all('|' not in d['id'] and fits(d['id'], d) for d in said):
        return 'named-right', ''
    if all(any(fits(i, d) for i in d['id'].split('|')) for d in said):
        return 'tie', ''
    return 'named-wrong', 'named ' + '; '.join(f"{d['id']}: {d['message'][:140]}" for d in said)


def group_of(expect):
    if expect in ('right', 'right:float'):
        return 'right'
    if expect.startswith('tape:') or expect.startswith('tape-tie:'):
        return 'undeclared'
    if expect == 'concept':
        return expect
    if expect == 'none' or expect.startswith('none:'):
        return 'none'
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
    false_words += [f'leak: {w}' for w in leaks(exercise)]
    group = group_of(expect)
    if group == 'undeclared':
        verdict, details = judge_tape(expect, exercise)
        return verdict, false_words, details
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
            return ('value-word' if group == 'none' else 'named-right'), false_words, ''
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


def expected_verdict(expect):
    """The one verdict --strict accepts."""
    if expect.startswith('tape-tie:'):
        return 'tie'
    if expect.startswith('tape:') or expect.startswith('invisible:') or expect in ('right', 'right:float'):
        return {'right': 'full-marks', 'right:float': 'full-marks'}.get(expect, 'named-right')
    if expect.startswith('none:'):
        return 'value-word'
    if expect in ('none', 'concept', 'invisible'):
        return 'abstained'
    return 'named-right'


def main():
    args = sys.argv[1:]
    strict = bool(args) and args[0] == '--strict'
    args = args[1:] if strict else args
    if len(args) < 2:
        sys.exit(__doc__)
    out = args[0]
    rows = read_expectations(args[1:])
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
        if strict and verdict != expected_verdict(row['expect']):
            bad = True
            details += f" (expected {expected_verdict(row['expect'])})"
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
    for group in ('right', 'catalogue', 'pair', 'undeclared', 'none', 'concept', 'invisible'):
        if group in tally:
            counts = tally[group]
            n = sum(v for k, v in counts.items() if k != 'false-words')
            print(f"{group:10} {n:8}  " + ', '.join(f'{k} {v}' for k, v in sorted(counts.items())))
    print(f'{failures} false diagnoses or right programs short of full marks')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
