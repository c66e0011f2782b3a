"""Independent reference implementation of Crime City replay (for differential testing only)."""
