"""Baseline agents for blackangel_env."""
