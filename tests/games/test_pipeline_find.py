"""`pbm bench bots`' Pipeline figure: a bot searching alone for a random secret."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from pbm.bench import pipeline_find


def test_a_bot_alone_finds_a_random_secret_and_its_turns_are_counted():
    for seed in (1, 2, 3):
        found = pipeline_find.find(pipeline_find.Search("good", seed, 3.0))
        assert found.found
        # Every turn but the right guess is a probe or a wrong guess, and a deducer needs
        # more than one probe to tell three holes among up to 23,100 secrets.
        assert 2 <= found.probes < found.turns < pipeline_find.MOST_TURNS
        assert pipeline_find.find(pipeline_find.Search("good", seed, 3.0)) == found


def test_the_figures_are_the_mean_and_worst_of_the_searches():
    with ThreadPoolExecutor(2) as pool:
        figures = pipeline_find.run(pool, 3, strengths=("good",), seed=7)
    one = [pipeline_find.find(pipeline_find.Search("good", 7 * 100_000 + n, 3.0))
           for n in range(3)]
    assert figures == {"pipeline.goodbot_finds": {
        "searches": 3, "found": 3,
        "probes_mean": round(sum(f.probes for f in one) / 3, 2),
        "probes_worst": max(f.probes for f in one),
        "turns_mean": round(sum(f.turns for f in one) / 3, 2),
        "turns_worst": max(f.turns for f in one)}}
