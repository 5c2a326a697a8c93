"""The brands sold in Turkey with their WMI prefixes: reference data the offline WMI table answers from and the
billing seed stores as the brand rows dealers subscribe to."""

from __future__ import annotations

# (name, slug, WMIs). Turkish plants included: NM0 Ford Otosan, NM4 Tofaş, NMT Toyota, NLH Hyundai Assan,
# NLA Honda, NLE Mercedes-Benz Türk. A WMI belongs to one brand only.
BRANDS: list[tuple[str, str, tuple[str, ...]]] = [
    ("Alfa Romeo", "alfa-romeo", ("ZAR",)),
    ("Audi", "audi", ("WAU", "WA1", "TRU")),
    ("BMW", "bmw", ("WBA", "WBS", "WBX", "WBY")),
    ("Chery", "chery", ("LVV",)),
    ("Citroën", "citroen", ("VF7",)),
    ("Dacia", "dacia", ("UU1",)),
    ("DS", "ds", ("VR1",)),
    ("Fiat", "fiat", ("ZFA", "NM4")),
    ("Ford", "ford", ("WF0", "NM0")),
    ("Honda", "honda", ("JHM", "SHH", "NLA")),
    ("Hyundai", "hyundai", ("KMH", "TMA", "NLH", "NLJ")),
    ("Jaguar", "jaguar", ("SAJ",)),
    ("Jeep", "jeep", ("1C4", "ZAC")),
    ("Kia", "kia", ("KNA", "KNE", "U5Y")),
    ("Land Rover", "land-rover", ("SAL",)),
    ("Lexus", "lexus", ("JTH",)),
    ("Mazda", "mazda", ("JMZ",)),
    ("Mercedes-Benz", "mercedes-benz", ("WDB", "WDD", "WDC", "WDF", "W1K", "W1N", "W1V", "NLE")),
    ("MG", "mg", ("LSJ",)),
    ("MINI", "mini", ("WMW",)),
    ("Mitsubishi", "mitsubishi", ("JMB", "MMB")),
    ("Nissan", "nissan", ("JN1", "SJN", "VSK")),
    ("Opel", "opel", ("W0L", "W0V")),
    ("Peugeot", "peugeot", ("VF3",)),
    ("Porsche", "porsche", ("WP0", "WP1")),
    ("Renault", "renault", ("VF1", "VF6")),
    ("Seat", "seat", ("VSS",)),
    ("Skoda", "skoda", ("TMB",)),
    ("Subaru", "subaru", ("JF1",)),
    ("Suzuki", "suzuki", ("JSA", "TSM")),
    ("Toyota", "toyota", ("JTD", "JTN", "SB1", "VNK", "NMT")),
    ("Volkswagen", "volkswagen", ("WVW", "WV1", "WV2", "WVG")),
    ("Volvo", "volvo", ("YV1",)),
]
