"""The offline WMI table."""

import pytest

from app.sources.wmi import DEFAULT_PORTAL_SUSPENDED, identify, slugify


@pytest.mark.parametrize(
    ("vin", "brand", "slug", "service"),
    [
        ("WVWZZZAUZHW100001", "Volkswagen", "volkswagen", "vw"),
        ("NM0XXXXXXXXXXXXXX", "Ford", "ford", "ford"),  # Ford Otosan
        ("NM4XXXXXXXXXXXXXX", "Fiat", "fiat", "fiat"),  # Tofaş
        ("NMTKZ3BE70R100003", "Toyota", "toyota", "toyota"),
        ("NLHXXXXXXXXXXXXXX", "Hyundai", "hyundai", "hyundai"),  # Hyundai Assan
        ("VF1RFB00X56100002", "Renault", "renault", "renault"),  # Oyak Renault too
        ("WDD2050421F000000", "Mercedes-Benz", "mercedes-benz", "mercedes"),
        ("TMBJJ7NE8J0000000", "Skoda", "skoda", "vw"),
        ("1HGCM82633A004352", "Honda", "honda", None),  # from vininfo; no portal service
    ],
)
def test_known_wmis(vin, brand, slug, service):
    info = identify(vin)

    assert (info.brand, info.brand_slug, info.portal_service) == (brand, slug, service)
    assert info.wmi == vin[:3]


@pytest.mark.parametrize("vin", ["ZZZ99999999999999", "short", "WVWZZZAUZHW10000I"])
def test_unknown_or_invalid_vins_are_not_identified(vin):
    assert identify(vin) is None


def test_makes_with_suspended_portal_identification_are_not_routed_there():
    mercedes = identify("WDD2050421F000000")
    volkswagen = identify("WVWZZZAUZHW100001")
    honda = identify("1HGCM82633A004352")

    assert "mercedes-benz" in DEFAULT_PORTAL_SUSPENDED
    assert not mercedes.routed_to_portal()
    assert volkswagen.routed_to_portal()
    assert not honda.routed_to_portal()  # no portal service at all
    assert not volkswagen.routed_to_portal(frozenset({"volkswagen"}))


def test_slugs_fold_accents():
    assert [slugify(name) for name in ("Škoda", "Citroën", "Alfa Romeo", "Kırmızı")] == [
        "skoda",
        "citroen",
        "alfa-romeo",
        "kirmizi",
    ]
