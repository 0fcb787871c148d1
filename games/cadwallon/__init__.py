"""«Гильдии Кадвалона» (Guilds of Cadwallon): the pure rules engine."""
