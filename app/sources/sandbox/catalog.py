"""A deterministic parts catalog generated from a seed, shared by the three sandbox upstreams (catapi, scrape, portal).

Nothing here is a data dump: vehicles, category trees, schema pictures, hotspots and part rows all come from
`random.Random` seeded per vehicle, so the same seed always yields the same catalog and adding a vehicle does not
reshuffle the others. The VIN table at the bottom says which sandbox source knows which car.
"""

from __future__ import annotations

import random
import re
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache

DEFAULT_SEED = 20240601

# The teaser ranges of the spec, which the fully loaded vehicle meets.
FULL_PARTS_RANGE = (9_300, 10_700)
FULL_SCHEMAS_RANGE = (100, 150)
SMALL_PARTS_RANGE = (900, 1_400)
SMALL_SCHEMAS_RANGE = (18, 26)

VIN_GOLF = "WVWZZZAUZHW100001"
VIN_CLIO = "VF1RFB00X56100002"
VIN_COROLLA = "NMTKZ3BE70R100003"
VIN_BMW = "WBA8E9G50GNU00004"
VIN_HONDA = "1HGCM82633A004352"
VIN_UNKNOWN = "ZZZ99999999999999"

REFERENCE_OEM = "N/A"
REFERENCE_PHRASINGS = ("bk. tablo: {code}", "bakınız tablo, konum: {code}")


# --- what the catalog is made of ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CatalogPart:
    key: str  # stable across generations of the same seed, so other sandboxes can join on it
    oem: str
    name_en: str
    name_tr: str
    position: str | None
    unavailable: bool = False
    remark: str | None = None
    reference_code: str | None = None  # set on reference rows: the illustration they point to
    quantity: int | None = None  # how many the drawing takes; None: as needed, or not said (reference rows)
    fit: RowFit | None = None  # which cars of the family the row is for; None: every one (and reference rows)

    @property
    def notice(self) -> str | None:
        """The remark with the condition only the remark states, as the sources print it."""
        return _joined(self.remark, self.fit.note if self.fit else None)

    @property
    def notice_with_dates(self) -> str | None:
        """The notice with the row's build-date range in words, as the web catalog prints it."""
        return _joined(self.remark, self.fit.dates if self.fit else None, self.fit.note if self.fit else None)


@dataclass(frozen=True, order=True, slots=True)
class BuildDate:
    """A month of production (the sandbox's own: an upstream shares no code with its clients)."""

    year: int
    month: int

    def shifted(self, months: int) -> BuildDate:
        index = self.year * 12 + self.month - 1 + months
        return BuildDate(index // 12, index % 12 + 1)

    def __str__(self) -> str:
        return f"{self.year:04d}-{self.month:02d}"


@dataclass(frozen=True, slots=True)
class RowFit:
    """Which cars of a vehicle's family a part row is for; each source states its own share of it.

    `model_codes` name engine variants (the vehicle's own code and one per other engine), `options` is an option-code
    expression as the portal writes it ("1ZD/1ZF", "!9AA"), `note` a condition only the remark states ("with air
    conditioning") that no source's facts settle.
    """

    model_codes: tuple[str, ...] = ()
    date_from: BuildDate | None = None
    date_to: BuildDate | None = None
    options: str | None = None
    engine_codes: tuple[str, ...] = ()
    gearbox_codes: tuple[str, ...] = ()
    note: str | None = None

    def contradicted_by(self, criteria: dict[str, str]) -> bool:
        """Whether the row's variant, date, option, engine or gearbox conditions contradict a criteria string's
        values (catapi's parts2 filter); a value the criteria lack contradicts nothing. Remark-only conditions are not
        the filter's business: the client reads them from the notice."""
        checks = (
            ("modelCode", lambda value: value in self.model_codes, bool(self.model_codes)),
            ("engineCode", lambda value: value in self.engine_codes, bool(self.engine_codes)),
            ("gearboxCode", lambda value: value in self.gearbox_codes, bool(self.gearbox_codes)),
            ("buildDate", self._within_dates, bool(self.date_from or self.date_to)),
            ("pr", lambda value: _options_hold(self.options or "", set(value.split(","))), bool(self.options)),
        )
        return any(stated and key in criteria and not holds(criteria[key]) for key, holds, stated in checks)

    def _within_dates(self, value: str) -> bool:
        year, _, month = value.partition("-")
        if not (year.isdigit() and month.isdigit()):
            return True
        built = BuildDate(int(year), int(month))
        return (self.date_from is None or self.date_from <= built) and (self.date_to is None or built <= self.date_to)

    @property
    def dates(self) -> str | None:
        """ "06.2015-11.2017", "from 06.2015", "to 11.2017"; None without a range."""
        start, end = (f"{date.month:02d}.{date.year}" if date else None for date in (self.date_from, self.date_to))
        if start and end:
            return f"{start}-{end}"
        return f"from {start}" if start else f"to {end}" if end else None


def _options_hold(expression: str, fitted: set[str]) -> bool:
    """The sandbox's option expressions ("A", "A/B", "!A", "A+B": "+" joins families, "/" alternatives)."""

    def term(code: str) -> bool:
        return code[1:] not in fitted if code.startswith("!") else code in fitted

    return all(any(term(code) for code in family.split("/")) for family in expression.split("+"))


def _joined(*texts: str | None) -> str | None:
    return "; ".join(text for text in texts if text) or None


@dataclass(frozen=True, slots=True)
class Hotspot:
    position: str
    x1: int
    y1: int
    x2: int
    y2: int


@dataclass(frozen=True, slots=True)
class SchemaPicture:
    code: str  # NNN-NNN; its first digit is the main group
    name_en: str
    name_tr: str
    width: int
    height: int
    hotspots: tuple[Hotspot, ...]
    parts: tuple[CatalogPart, ...]

    @property
    def title_en(self) -> str:
        return f"{self.name_en} {{{self.code}}}"

    @property
    def title_tr(self) -> str:
        return f"{self.name_tr} {{{self.code}}}"


@dataclass(frozen=True, slots=True)
class Category:
    id: str
    parent_id: str | None
    name_en: str
    name_tr: str
    children: tuple[Category, ...] = ()
    schemas: tuple[SchemaPicture, ...] = ()


@dataclass(frozen=True, slots=True)
class CarListing:
    """One car as a catalog lists it; engine variants of a vehicle share its category tree."""

    car_id: str
    name: str
    year: int
    engine: str
    gearbox: str


@dataclass(frozen=True)
class Vehicle:
    key: str
    car_id: str
    catalog_id: str
    model_id: str
    brand: str
    model: str
    name: str
    year: int
    engine: str
    gearbox: str
    body: str
    model_code: str
    categories: tuple[Category, ...]
    listings: tuple[CarListing, ...]
    build: VehicleBuild

    @property
    def parameters(self) -> dict[str, str]:
        return {
            "year": str(self.year),
            "engine": self.engine,
            "gearbox": self.gearbox,
            "body": self.body,
            "modelCode": self.model_code,
        }

    @property
    def criteria(self) -> str:
        """The catalog API's criteria for the VIN's car: its variant, build date and option codes."""
        build = self.build
        return (
            f"modelCode={self.model_code};engineCode={build.engine_codes[self.engine]};gearboxCode={build.gearbox_code}"
            f";buildDate={build.build_date};market={build.market};year={self.year};pr={','.join(build.options)}"
        )

    def listing_criteria(self, listing: CarListing) -> str:
        """A listed car's criteria: its engine variant and year, no build date and no options (a browsed car)."""
        return (
            f"modelCode={self.build.variant_codes[listing.engine]};engineCode={self.build.engine_codes[listing.engine]}"
            f";gearboxCode={self.build.gearbox_code};year={listing.year}"
        )

    @property
    def build_data(self) -> dict[str, object]:
        """The portal's build data of the VIN's car."""
        build = self.build
        return {
            "modelCode": self.model_code,
            "engineCode": build.engine_codes[self.engine],
            "gearboxCode": build.gearbox_code,
            "buildDate": f"{build.build_date.month:02d}.{build.build_date.year}",
            "market": build.market,
            "prCodes": list(build.options),
        }

    def all_categories(self) -> Iterator[Category]:
        for main in self.categories:
            yield main
            yield from main.children

    def all_schemas(self) -> Iterator[SchemaPicture]:
        for category in self.all_categories():
            yield from category.schemas

    def category(self, category_id: str) -> Category | None:
        return next((item for item in self.all_categories() if item.id == category_id), None)

    def schema(self, code: str) -> SchemaPicture | None:
        return next((item for item in self.all_schemas() if item.code == code), None)

    def counts(self) -> tuple[int, int, int]:
        """Categories, parts and schema pictures, as the teaser counts them."""
        schemas = list(self.all_schemas())
        return sum(1 for _ in self.all_categories()), sum(len(item.parts) for item in schemas), len(schemas)


@dataclass(frozen=True)
class VehicleBuild:
    """The VIN's car beyond its catalog listing: the family's variants and this car's build (all from hashes)."""

    variant_codes: dict[str, str]  # engine -> model code (the vehicle's own engine has the vehicle's model code)
    engine_codes: dict[str, str]  # engine -> engine code
    gearbox_code: str
    other_gearbox_code: str  # the family's other gearbox, for rows of the gearbox it does not have
    build_date: BuildDate
    market: str
    options: tuple[str, ...]  # one option code per option family


@dataclass(frozen=True, slots=True)
class VinRecord:
    vin: str
    catapi: tuple[str, ...] = ()  # vehicle keys each sandbox source answers with
    scrape: tuple[str, ...] = ()
    portal: tuple[str, ...] = ()


@dataclass(frozen=True)
class SandboxCatalog:
    seed: int
    vehicles: tuple[Vehicle, ...]
    vins: tuple[VinRecord, ...]

    def vehicle(self, key: str) -> Vehicle:
        return next(item for item in self.vehicles if item.key == key)

    def vehicle_for_car(self, car_id: str) -> Vehicle | None:
        """The vehicle whose tree a listed car uses (the vehicle itself or one of its engine variants)."""
        return next((item for item in self.vehicles if any(car.car_id == car_id for car in item.listings)), None)

    def cars_for_vin(self, vin: str, source: str) -> tuple[Vehicle, ...]:
        record = next((item for item in self.vins if item.vin == vin.upper()), None)
        return tuple(self.vehicle(key) for key in getattr(record, source, ())) if record else ()


# --- the generator's inputs: a few facts per vehicle and an EN->TR word table --------------------------------------


@dataclass(frozen=True)
class VehicleSpec:
    key: str
    catalog_id: str
    brand: str
    model: str
    name: str
    year: int
    engine: str
    gearbox: str
    body: str
    model_code: str
    oem_style: str
    engines: tuple[str, ...]
    full_size: bool = False


VEHICLE_SPECS = (
    VehicleSpec("vw-golf-7", "volkswagen", "Volkswagen", "Golf", "Golf VII 1.6 TDI", 2017, "1.6 TDI", "DQ200",
                "Hatchback", "AU", "vag", ("1.0 TSI", "1.4 TSI", "1.6 TDI", "2.0 TDI"), full_size=True),
    VehicleSpec("renault-clio-4", "renault", "Renault", "Clio", "Clio IV 1.5 dCi", 2015, "1.5 dCi", "JR5",
                "Hatchback", "BH", "renault", ("0.9 TCe", "1.2 16V", "1.5 dCi")),
    VehicleSpec("toyota-corolla-hybrid", "toyota", "Toyota", "Corolla", "Corolla E210 1.8 Hybrid", 2020,
                "1.8 Hybrid", "e-CVT", "Sedan", "ZWE211", "toyota", ("1.5 VVT-i", "1.8 Hybrid")),
    VehicleSpec("toyota-corolla-petrol", "toyota", "Toyota", "Corolla", "Corolla E210 1.6", 2020, "1.6 Valvematic",
                "Multidrive S", "Sedan", "ZRE210", "toyota", ("1.6 Valvematic",)),
    VehicleSpec("bmw-3-f30", "bmw", "BMW", "3 Series", "320i F30", 2016, "B48", "8HP", "Sedan", "F30", "bmw",
                ("318i", "320i", "320d", "330e")),
    VehicleSpec("fiat-egea", "fiat", "Fiat", "Egea", "Egea 1.3 Multijet", 2018, "1.3 Multijet", "C635", "Sedan",
                "356", "fiat", ("1.4 Fire", "1.3 Multijet", "1.6 Multijet")),
    VehicleSpec("ford-focus-4", "ford", "Ford", "Focus", "Focus IV 1.5 EcoBlue", 2019, "1.5 EcoBlue", "B6",
                "Hatchback", "C519", "ford", ("1.0 EcoBoost", "1.5 EcoBlue")),
    VehicleSpec("hyundai-i20", "hyundai", "Hyundai", "i20", "i20 1.4 MPI", 2017, "1.4 MPI", "M6CF1", "Hatchback",
                "GB", "hyundai", ("1.2 MPI", "1.4 MPI", "1.4 CRDi")),
    VehicleSpec("opel-astra-k", "opel", "Opel", "Astra", "Astra K 1.6 CDTI", 2017, "1.6 CDTI", "M32", "Hatchback",
                "B16", "opel", ("1.4 Turbo", "1.6 CDTI")),
    VehicleSpec("peugeot-308", "peugeot", "Peugeot", "308", "308 II 1.6 BlueHDi", 2016, "1.6 BlueHDi", "BE4",
                "Hatchback", "T9", "psa", ("1.2 PureTech", "1.6 BlueHDi")),
    VehicleSpec("dacia-duster", "dacia", "Dacia", "Duster", "Duster II 1.5 dCi", 2019, "1.5 dCi", "TL8", "SUV",
                "HM", "renault", ("1.0 TCe", "1.3 TCe", "1.5 dCi")),
)  # fmt: skip

VIN_TABLE = (
    VinRecord(VIN_GOLF, catapi=("vw-golf-7",), portal=("vw-golf-7",)),
    VinRecord(VIN_CLIO, scrape=("renault-clio-4",)),
    VinRecord(VIN_COROLLA, catapi=("toyota-corolla-hybrid", "toyota-corolla-petrol")),
    VinRecord(VIN_BMW, portal=("bmw-3-f30",)),
    VinRecord(VIN_HONDA),  # only the public VIN decoder identifies it
    VinRecord(VIN_UNKNOWN),
)


@dataclass(frozen=True)
class MainGroup:
    number: int
    name: tuple[str, str]  # (English, Turkish)
    subgroups: tuple[tuple[int, str, str], ...]  # (number, English, Turkish)
    parts: tuple[tuple[str, str], ...]


MAIN_GROUPS = (
    MainGroup(1, ("Engine", "Motor"),
              ((3, "Cylinder block", "Silindir bloğu"), (9, "Timing drive", "Triger tahriki"),
               (15, "Cylinder head", "Silindir kapağı"), (17, "Lubrication", "Yağlama"),
               (21, "Cooling system", "Soğutma sistemi")),
              (("Cylinder head gasket", "Silindir kapak contası"), ("Oil filter", "Yağ filtresi"),
               ("Oil pump", "Yağ pompası"), ("Timing belt", "Triger kayışı"), ("Tensioner pulley", "Gergi makarası"),
               ("Water pump", "Devirdaim pompası"), ("Thermostat", "Termostat"), ("Radiator", "Radyatör"),
               ("Piston", "Piston"), ("Piston ring set", "Segman takımı"), ("Crankshaft seal", "Krank keçesi"),
               ("Valve cover gasket", "Külbütör kapak contası"), ("Camshaft", "Eksantrik mili"),
               ("Oil sump", "Yağ karteri"), ("Coolant hose", "Soğutma suyu hortumu"))),
    MainGroup(2, ("Fuel system", "Yakıt sistemi"),
              ((1, "Fuel tank", "Yakıt deposu"), (27, "Injection system", "Enjeksiyon sistemi"),
               (29, "Air intake", "Hava emiş")),
              (("Fuel pump", "Yakıt pompası"), ("Fuel filter", "Yakıt filtresi"), ("Injector", "Enjektör"),
               ("Fuel tank", "Yakıt deposu"), ("Air filter", "Hava filtresi"), ("Intake manifold", "Emme manifoldu"),
               ("Throttle body", "Gaz kelebeği gövdesi"), ("Fuel line", "Yakıt hattı"), ("Tank cap", "Depo kapağı"),
               ("Turbocharger", "Turbo şarj"), ("Intercooler", "Ara soğutucu"))),
    MainGroup(3, ("Exhaust system", "Egzoz sistemi"),
              ((31, "Exhaust gas recirculation", "Egzoz gazı geri dönüşü"), (53, "Silencers", "Susturucular")),
              (("Front silencer", "Ön susturucu"), ("Rear silencer", "Arka susturucu"),
               ("Catalytic converter", "Katalitik konvertör"), ("Particulate filter", "Partikül filtresi"),
               ("Exhaust gasket", "Egzoz contası"), ("Rubber mount", "Lastik takoz"), ("EGR valve", "EGR valfi"),
               ("Lambda sensor", "Lambda sondası"), ("Exhaust clamp", "Egzoz kelepçesi"))),
    MainGroup(4, ("Clutch, gearbox", "Debriyaj, şanzıman"),
              ((0, "Gearbox housing", "Şanzıman gövdesi"), (11, "Gear shift mechanism", "Vites mekanizması"),
               (41, "Clutch", "Debriyaj")),
              (("Clutch kit", "Debriyaj seti"), ("Clutch release bearing", "Debriyaj rulmanı"),
               ("Dual-mass flywheel", "Çift kütleli volan"), ("Gearbox mount", "Şanzıman takozu"),
               ("Gear lever", "Vites kolu"), ("Shift cable", "Vites teli"), ("Gearbox oil seal", "Şanzıman keçesi"),
               ("Synchronizer ring", "Senkromeç halkası"))),
    MainGroup(5, ("Axles, steering", "Akslar, direksiyon"),
              ((1, "Rear axle", "Arka aks"), (7, "Front axle", "Ön aks"), (13, "Suspension", "Süspansiyon"),
               (19, "Steering", "Direksiyon")),
              (("Control arm", "Salıncak"), ("Ball joint", "Rotil"), ("Tie rod end", "Rot başı"),
               ("Shock absorber", "Amortisör"), ("Coil spring", "Helezon yay"), ("Stabilizer link", "Z rot"),
               ("Wheel bearing", "Porya rulmanı"), ("Steering rack", "Direksiyon kutusu"), ("Drive shaft", "Aks mili"),
               ("Strut mount", "Amortisör takozu"), ("Bushing", "Burç"))),
    MainGroup(6, ("Wheels, brakes", "Tekerlekler, frenler"),
              ((1, "Wheels, tyres", "Jant, lastik"), (15, "Brakes", "Frenler"),
               (98, "Brake hydraulics", "Fren hidroliği")),
              (("Brake disc", "Fren diski"), ("Brake pad set", "Fren balata seti"), ("Brake caliper", "Fren kaliperi"),
               ("Brake hose", "Fren hortumu"), ("ABS sensor", "ABS sensörü"), ("Wheel bolt", "Bijon cıvatası"),
               ("Alloy wheel", "Alaşım jant"), ("Brake drum", "Fren kampanası"),
               ("Brake master cylinder", "Fren ana merkezi"), ("Handbrake cable", "El freni teli"))),
    MainGroup(7, ("Body", "Kaporta"),
              ((3, "Front bumper", "Ön tampon"), (7, "Rear bumper", "Arka tampon"),
               (21, "Bonnet, wings", "Motor kaputu, çamurluklar"), (31, "Doors", "Kapılar"),
               (57, "Mirrors", "Aynalar")),
              (("Bumper cover", "Tampon kaplaması"), ("Grille", "Panjur"), ("Bonnet", "Motor kaputu"),
               ("Wing", "Çamurluk"), ("Door panel", "Kapı paneli"), ("Door handle", "Kapı kolu"),
               ("Window regulator", "Cam krikosu"), ("Exterior mirror", "Dış dikiz aynası"),
               ("Mirror glass", "Ayna camı"), ("Clip", "Klips"), ("Trim strip", "Trim çıtası"))),
    MainGroup(8, ("Electrics", "Elektrik"),
              ((3, "Alternator, starter", "Alternatör, marş motoru"), (41, "Headlights", "Farlar"),
               (45, "Tail lights", "Stop lambaları"), (55, "Wiper system", "Silecek sistemi"),
               (57, "Control units", "Kontrol üniteleri")),
              (("Headlight", "Far"), ("Tail light", "Stop lambası"), ("Bulb", "Ampul"), ("Alternator", "Alternatör"),
               ("Starter motor", "Marş motoru"), ("Battery", "Akü"), ("Wiper blade", "Silecek süpürgesi"),
               ("Wiper motor", "Silecek motoru"), ("Control unit", "Kontrol ünitesi"),
               ("Wiring harness", "Kablo demeti"), ("Fuse", "Sigorta"), ("Relay", "Röle"), ("Fog light", "Sis farı"))),
    MainGroup(9, ("Accessories", "Aksesuarlar"),
              ((0, "Accessories", "Aksesuarlar"), (11, "Interior accessories", "İç aksesuarlar"),
               (20, "Towing hitch", "Çeki demiri")),
              (("Floor mat set", "Paspas seti"), ("Roof rack", "Port bagaj"), ("Towing hitch", "Çeki demiri"),
               ("First aid kit", "İlk yardım çantası"), ("Warning triangle", "Reflektör"),
               ("Mud flap", "Çamur tutucu"), ("Boot liner", "Bagaj havuzu"), ("Wheel trim", "Jant kapağı"),
               ("Seat cover", "Koltuk kılıfı"))),
)  # fmt: skip

QUALIFIERS = (
    ("front", "ön"), ("rear", "arka"), ("left", "sol"), ("right", "sağ"), ("upper", "üst"), ("lower", "alt"),
    ("front left", "ön sol"), ("front right", "ön sağ"), ("rear left", "arka sol"), ("rear right", "arka sağ"),
)  # fmt: skip

BMW_GROUPS = {1: (11, 12), 2: (13, 16), 3: (18,), 4: (21, 23), 5: (31, 32, 33), 6: (34, 36), 7: (41, 51), 8: (61, 63),
              9: (82,)}  # fmt: skip


# --- OEM numbers in each maker's own style --------------------------------------------------------------------------


def _digits(rng: random.Random, count: int) -> str:
    return "".join(str(rng.randint(0, 9)) for _ in range(count))


def _oem_vag(rng: random.Random, main: int) -> str:  # 5Q0 615 301 F
    suffix = rng.choice(("", " A", " B", " C", " F", " AB", " G"))
    return f"{rng.choice(('5Q0', '5G0', '04L', '1K0', '03L', '5G1'))} {main}{_digits(rng, 2)} {_digits(rng, 3)}{suffix}"


def _oem_renault(rng: random.Random, _main: int) -> str:  # 7701 208 174
    return f"{rng.choice(('7701', '7700', '8200', '8201'))} {_digits(rng, 3)} {_digits(rng, 3)}"


def _oem_toyota(rng: random.Random, _main: int) -> str:  # 04465-02220
    return f"{_digits(rng, 5)}-{_digits(rng, 5)}"


def _oem_bmw(rng: random.Random, main: int) -> str:  # 34 11 6 860 242
    return f"{rng.choice(BMW_GROUPS[main])} {_digits(rng, 2)} {rng.randint(1, 9)} {_digits(rng, 3)} {_digits(rng, 3)}"


def _oem_fiat(rng: random.Random, _main: int) -> str:  # 51932710
    return f"{rng.choice('4579')}{_digits(rng, 7)}"


def _oem_ford(rng: random.Random, _main: int) -> str:  # 2 123 456 (finis code)
    return f"{rng.randint(1, 2)} {_digits(rng, 3)} {_digits(rng, 3)}"


def _oem_hyundai(rng: random.Random, _main: int) -> str:  # 58101-C8A00
    letters = "ABCDEFGHJKLMNPRSTUVWXYZ"
    return f"{_digits(rng, 5)}-{rng.choice(letters)}{rng.randint(0, 9)}{rng.choice(letters)}{_digits(rng, 2)}"


def _oem_opel(rng: random.Random, _main: int) -> str:  # 13 502 050
    return f"{rng.choice(('13', '39', '55', '95'))} {_digits(rng, 3)} {_digits(rng, 3)}"


def _oem_psa(rng: random.Random, _main: int) -> str:  # 98 086 478 80
    return f"{rng.choice(('16', '96', '98'))} {_digits(rng, 3)} {_digits(rng, 3)} {_digits(rng, 2)}"


OEM_STYLES: dict[str, Callable[[random.Random, int], str]] = {
    "vag": _oem_vag,
    "renault": _oem_renault,
    "toyota": _oem_toyota,
    "bmw": _oem_bmw,
    "fiat": _oem_fiat,
    "ford": _oem_ford,
    "hyundai": _oem_hyundai,
    "opel": _oem_opel,
    "psa": _oem_psa,
}


# --- the generator ---------------------------------------------------------------------------------------------------

# How many of a part a row takes, by the last two digits of a hash of its key: mostly 1 or 2, pairs and sets of
# four, now and then none ("as needed": fluids, sealant, small parts).
QUANTITY_SHARES = ((6, None), (64, 1), (84, 2), (90, 4), (96, 3), (98, 6), (100, 8))
COUNT_REMARK = re.compile(r"(\d+)x")

CALLOUT_WIDTH, CALLOUT_HEIGHT = 44, 28
GRID_COLUMNS, GRID_ROWS = 10, 7  # callout cells per picture; more than the most positions a picture gets


@dataclass
class _VehicleGenerator:
    spec: VehicleSpec
    rng: random.Random
    build: VehicleBuild

    def categories(self) -> tuple[Category, ...]:
        mains = [(main, self._pick_subgroups(main)) for main in MAIN_GROUPS]
        schema_slots = [(main, sub) for main, subs in mains for sub in subs]
        low, high = FULL_SCHEMAS_RANGE if self.spec.full_size else SMALL_SCHEMAS_RANGE
        schema_count = self.rng.randint(max(low, len(schema_slots)), high)
        rows = self._rows_per_schema(schema_count)
        owners = schema_slots + [self.rng.choice(schema_slots) for _ in range(schema_count - len(schema_slots))]
        owners.sort(key=lambda slot: (slot[0].number, slot[1][0]))
        schemas = self._schemas(owners, rows)
        return tuple(self._main_category(main, subs, schemas) for main, subs in mains)

    def _pick_subgroups(self, main: MainGroup) -> list[tuple[int, str, str]]:
        count = self.rng.randint(1, min(2, len(main.subgroups)))
        return sorted(self.rng.sample(main.subgroups, count))

    def _rows_per_schema(self, schema_count: int) -> list[int]:
        low, high = FULL_PARTS_RANGE if self.spec.full_size else SMALL_PARTS_RANGE
        target = self.rng.randint(low, high)
        rows = [target // schema_count] * schema_count
        for index in range(0, schema_count - 1, 2):  # paired jitter keeps the total exact
            shift = self.rng.randint(-rows[index] // 5, rows[index] // 5)
            rows[index] += shift
            rows[index + 1] -= shift
        rows[-1] += target - sum(rows)
        return rows

    def _schemas(self, owners: list, rows: list[int]) -> dict[tuple[int, int], list[SchemaPicture]]:
        counters: dict[tuple[int, int], int] = {}
        codes = []  # all codes first, so reference rows can point at any picture of the vehicle
        for main, sub in owners:
            slot = (main.number, sub[0])
            counters[slot] = counters.get(slot, 0) + 1
            codes.append(f"{main.number}{sub[0]:02d}-{counters[slot] * 10:03d}")
        by_slot: dict[tuple[int, int], list[SchemaPicture]] = {slot: [] for slot in counters}
        for (main, sub), code, row_count in zip(owners, codes, rows, strict=True):
            by_slot[(main.number, sub[0])].append(self._schema(main, code, row_count, codes))
        return by_slot

    def _main_category(self, main: MainGroup, subs: list, schemas: dict) -> Category:
        children = tuple(
            Category(f"{main.number}{number:02d}", str(main.number), en, tr, (), tuple(schemas[(main.number, number)]))
            for number, en, tr in subs
        )
        return Category(str(main.number), None, main.name[0], main.name[1], children)

    def _schema(self, main: MainGroup, code: str, row_count: int, all_codes: list[str]) -> SchemaPicture:
        width, height = self.rng.choice((1200, 1400, 1600)), self.rng.choice((900, 1000, 1100))
        position_count = self.rng.randint(min(18, row_count), min(40, row_count))
        hotspots = self._hotspots(position_count, width, height)
        title = self.rng.choice(main.parts)
        parts = self._parts(main, code, row_count, position_count, all_codes)
        return SchemaPicture(code, title[0], title[1], width, height, hotspots, parts)

    def _hotspots(self, count: int, width: int, height: int) -> tuple[Hotspot, ...]:
        cell_width, cell_height = width // GRID_COLUMNS, height // GRID_ROWS
        cells = self.rng.sample(range(GRID_COLUMNS * GRID_ROWS), count)
        hotspots = []
        for number, cell in enumerate(cells, start=1):
            column, row = divmod(cell, GRID_ROWS)
            x1 = column * cell_width + self.rng.randint(4, cell_width - CALLOUT_WIDTH - 4)
            y1 = row * cell_height + self.rng.randint(4, cell_height - CALLOUT_HEIGHT - 4)
            hotspots.append(Hotspot(str(number), x1, y1, x1 + CALLOUT_WIDTH, y1 + CALLOUT_HEIGHT))
        return tuple(hotspots)

    def _parts(self, main: MainGroup, code: str, row_count: int, positions: int, codes: list[str]) -> tuple:
        extra = [self.rng.randint(1, positions) for _ in range(row_count - positions)]
        position_of_row = sorted([*range(1, positions + 1), *extra])
        parts = []
        for row, position in enumerate(position_of_row):
            key = f"{self.spec.key}/{code}/{row:03d}"
            roll = self.rng.random()
            if roll < 0.01:
                parts.append(self._reference_row(key, main, str(position), code, codes))
            else:
                parts.append(self._part_row(key, main, None if roll > 0.985 else str(position)))
        return tuple(parts)

    def _names(self, main: MainGroup) -> tuple[str, str]:
        name_en, name_tr = self.rng.choice(main.parts)
        if self.rng.random() < 0.45:
            qualifier_en, qualifier_tr = self.rng.choice(QUALIFIERS)
            return f"{name_en}, {qualifier_en}", f"{name_tr}, {qualifier_tr}"
        return name_en, name_tr

    def _part_row(self, key: str, main: MainGroup, position: str | None) -> CatalogPart:
        name_en, name_tr = self._names(main)
        oem = OEM_STYLES[self.spec.oem_style](self.rng, main.number)
        unavailable = self.rng.random() < 0.04
        remark, quantity = self._remark(), _quantity(key)
        if remark and (count := COUNT_REMARK.fullmatch(remark)):  # a "3x" remark is the row's quantity
            remark, quantity = None, int(count.group(1))
        fit = _row_fit(key, self.spec, self.build)
        return CatalogPart(key, oem, name_en, name_tr, position, unavailable, remark, quantity=quantity, fit=fit)

    def _remark(self) -> str | None:
        roll = self.rng.random()
        if roll > 0.15:
            return None
        month, year = self.rng.randint(1, 12), self.rng.randint(self.spec.year - 3, self.spec.year + 3)
        pr_code = f"{self.rng.randint(0, 9)}{self.rng.choice('ABCDJKZ')}{self.rng.choice('ABCDJKZ')}"
        bolt = f"M{self.rng.choice((6, 8, 10))}x{self.rng.choice((16, 20, 35))}"
        choices = (
            f"from {month:02d}.{year}",
            f"up to {month:02d}.{year}",
            f"PR: {pr_code}",
            bolt,
            f"{self.rng.randint(2, 6)}x",
        )
        return self.rng.choice(choices)

    def _reference_row(self, key: str, main: MainGroup, position: str, own: str, codes: list[str]) -> CatalogPart:
        target = self.rng.choice([code for code in codes if code != own] or [own])
        phrasing = self.rng.choice(REFERENCE_PHRASINGS).format(code=target)
        name_en, name_tr = self.rng.choice(main.parts)
        # The upstreams keep the Turkish 'see table' phrasing in every language; clients strip it for display.
        return CatalogPart(
            key, REFERENCE_OEM, f"{name_en}, {phrasing}", f"{name_tr}, {phrasing}", position, False, target, target
        )

    def listings(self, car_id: str) -> tuple[CarListing, ...]:
        spec = self.spec
        own = CarListing(car_id, spec.name, spec.year, spec.engine, spec.gearbox)
        siblings = []
        for _ in range(self.rng.randint(5, 12)):
            engine, year = self.rng.choice(spec.engines), spec.year + self.rng.randint(-3, 3)
            name = f"{spec.model} {engine} {spec.body} ({year})"
            siblings.append(CarListing(_hex_id(self.rng), name, year, engine, spec.gearbox))
        return (own, *siblings)


def _quantity(key: str) -> int | None:
    """The row's quantity from its key, not from the generator's stream: drawing it there would change every number
    the stream gives after it (OEM codes, remarks, whole pictures) from what the same seed gave before."""
    share = zlib.crc32(key.encode()) % 100
    return next(quantity for limit, quantity in QUANTITY_SHARES if share < limit)


# --- applicability: from hashes of the keys, never from the generator's stream (see `_quantity`) -------------------

OPTION_FAMILIES = (("1ZF", "1ZD", "1KD"), ("9AK", "9AB", "9AA"), ("8K1", "8K4"), ("4L2", "4L6"), ("1N3", "1N7"))
BMW_OPTION_FAMILIES = (("S534A", "S548A"), ("S430A", "S431A"), ("S2VBA", "S2VFA"), ("S5ACA", "S5AAA"))
_CODE_LETTERS = "ABCDEFGHJKLMNPRSTVWXYZ"
_VARIANT_LETTERS = "BCDEFGHJK"
AWD_NAMES = {"vag": "4MOTION", "bmw": "xDrive"}
MARKET = "TR"

# Shares of a picture's rows (per thousand, cumulative) by what their applicability states; the rest fit every car.
_FIT_SHARES = (
    (220, "variant"),  # for one engine variant (a water pump per engine): its model code
    (300, "dates"),  # a build-date range around the car's
    (360, "options"),  # an option-code expression over one or two option families
    (390, "note"),  # a condition only the remark states (air conditioning, gearbox kind, doors, AWD, LHD)
    (420, "engine"),  # for one engine code
    (440, "gearbox"),  # for one of the family's two gearboxes
)


def _hash(text: str) -> int:
    return zlib.crc32(text.encode())


def _code(text: str, length: int) -> str:
    value = _hash(text)
    return "".join(_CODE_LETTERS[(value >> (5 * index)) % len(_CODE_LETTERS)] for index in range(length))


def _option_families(spec: VehicleSpec) -> tuple[tuple[str, ...], ...]:
    return BMW_OPTION_FAMILIES if spec.oem_style == "bmw" else OPTION_FAMILIES


def _vehicle_build(spec: VehicleSpec) -> VehicleBuild:
    engines = list(dict.fromkeys((spec.engine, *spec.engines)))
    variants = {
        engine: spec.model_code if engine == spec.engine else f"{spec.model_code}{_VARIANT_LETTERS[index]}"
        for index, engine in enumerate(engines)
    }
    built = _hash(f"{spec.key}/build")
    return VehicleBuild(
        variant_codes=variants,
        engine_codes={engine: _code(f"{spec.key}/engine/{engine}", 4) for engine in engines},
        gearbox_code=spec.gearbox.replace(" ", "").upper(),
        other_gearbox_code=_code(f"{spec.key}/gearbox", 3) + str(built % 10),
        build_date=BuildDate(spec.year, 1 + built % 12),
        market=MARKET,
        options=tuple(
            family[_hash(f"{spec.key}/option/{family[0]}") % len(family)] for family in _option_families(spec)
        ),
    )


def _row_fit(key: str, spec: VehicleSpec, build: VehicleBuild) -> RowFit | None:
    """Which cars of the family a part row is for, from a hash of its key."""
    roll = _hash(f"{key}/fit")
    share, pick = roll % 1000, roll // 1000
    kind = next((kind for limit, kind in _FIT_SHARES if share < limit), None)
    engines = list(build.variant_codes)
    match kind:
        case "variant":
            return RowFit(model_codes=(build.variant_codes[engines[pick % len(engines)]],))
        case "dates":
            return _dates_fit(build.build_date, pick)
        case "options":
            return RowFit(options=_option_expression(_option_families(spec), pick))
        case "note":
            return RowFit(note=_note(spec, pick))
        case "engine":
            return RowFit(engine_codes=(build.engine_codes[engines[pick % len(engines)]],))
        case "gearbox":
            return RowFit(gearbox_codes=((build.gearbox_code, build.other_gearbox_code)[pick % 2],))
    return None


def _dates_fit(built: BuildDate, pick: int) -> RowFit:
    """From, to, or from-to a month up to 30 months either side of the car's build."""
    edge = built.shifted(pick % 61 - 30)
    match (pick // 61) % 3:
        case 0:
            return RowFit(date_from=edge)
        case 1:
            return RowFit(date_to=edge)
    return RowFit(date_from=edge, date_to=edge.shifted(12 + pick % 24))


def _option_expression(families: tuple[tuple[str, ...], ...], pick: int) -> str:
    """One code, two alternatives, a NOT, or one code AND one of another family."""
    family, other = families[pick % len(families)], families[(pick // 7 + 1) % len(families)]
    first, second = family[(pick // 3) % len(family)], family[(pick // 3 + 1) % len(family)]
    match (pick // 11) % 4:
        case 0:
            return first
        case 1:
            return f"{first}/{second}"
        case 2:
            return f"!{first}"
    return first if other is family else f"{first}+{other[(pick // 5) % len(other)]}"


def _note(spec: VehicleSpec, pick: int) -> str:
    awd = AWD_NAMES.get(spec.oem_style, "all-wheel drive")
    notes = (
        "with air conditioning",
        "without air conditioning",
        "automatic gearbox",
        "manual gearbox",
        "2-door",
        "4/5-door",
        awd,
        f"not for {awd}",
        "LHD",
    )
    return notes[pick % len(notes)]


def _hex_id(rng: random.Random) -> str:
    return f"{rng.getrandbits(64):016x}"


def _model_id(seed: int, catalog_id: str, model: str) -> str:
    return _hex_id(random.Random(f"{seed}/model/{catalog_id}/{model}"))


def _vehicle(seed: int, spec: VehicleSpec) -> Vehicle:
    generator = _VehicleGenerator(spec, random.Random(f"{seed}/{spec.key}"), _vehicle_build(spec))
    car_id = _hex_id(generator.rng)
    categories = generator.categories()
    return Vehicle(
        spec.key, car_id, spec.catalog_id, _model_id(seed, spec.catalog_id, spec.model), spec.brand, spec.model,
        spec.name, spec.year, spec.engine, spec.gearbox, spec.body, spec.model_code, categories,
        generator.listings(car_id), generator.build,
    )  # fmt: skip


def generate_catalog(seed: int = DEFAULT_SEED) -> SandboxCatalog:
    """Build the whole catalog anew; use `sandbox_catalog` for the cached one."""
    return SandboxCatalog(seed, tuple(_vehicle(seed, spec) for spec in VEHICLE_SPECS), VIN_TABLE)


@lru_cache(maxsize=4)
def sandbox_catalog(seed: int = DEFAULT_SEED) -> SandboxCatalog:
    return generate_catalog(seed)
