"""ompnuma.report: renders and validates an exit report (`ompnuma report`)."""
