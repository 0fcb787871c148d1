"""«Интриги» (Алексей Пальцев, 2016): the pure rules engine."""
