"""One cog per feature: a cog per game plus the shared table commands."""
