"""Pure rule engines for every game the bot hosts: no Discord, no I/O, no clock, no global random."""
