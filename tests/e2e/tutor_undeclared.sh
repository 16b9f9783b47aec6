#!/usr/bin/env bash
# Issue 41's blind corpus of undeclared slips (tests/tutor_corpus/undeclared/): realistic student
# programs, each with a slip no catalogue entry declares (the list and others), graded as
# `grade` grades a class. Every program must get exactly the verdict expect.tsv says (score.py
# --strict): the change of the reference's recorded computation that makes the slip named, alone
# or in a tie holding it; a slip no single change makes left unnamed; never a false word, never a
# number of the expected answers in the words.
#   tests/e2e/tutor_undeclared.sh BLOCKCHECK ROOT
set -euo pipefail
blockcheck="$1"; root="$2"
STRICT=1 bash "$root/tests/long/tutor_corpus.sh" "$blockcheck" "$root" undeclared
