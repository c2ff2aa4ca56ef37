"""Training scripts for agents on blackangel_env."""
