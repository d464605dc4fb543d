"""Benchmarks behind `pbm bench`: the rule modules' speed and the whole mail path's."""
