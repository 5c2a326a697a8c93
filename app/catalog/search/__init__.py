"""Search inside one vehicle's catalog by name (Turkish or English) or code."""
