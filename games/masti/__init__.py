"""«Масти Власти» (Grok Games, 2023): a trick-taking game of guilds, bribes and power cards."""
