"""Yunxiao rule tests (spec rules/yunxiao.md).

A package so its module names (test_patterns, ...) stay distinct from other rule systems' test files under
pytest's default import mode.
"""
