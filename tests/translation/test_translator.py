"""The EN→TR translator: morphology, izafet, qualifiers, plurals, clauses, untouched codes and names, case styles,
unknown words, the sandbox's coverage and names from real catalogs that the sandbox does not generate."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.sources.sandbox.catalog import sandbox_catalog
from app.translation import Term, Translator, builtin_terms, default_translator
from app.translation.morphology import capitalize, plural, possessive, upper


@pytest.mark.parametrize(
    ("word", "expected"),
    [("filtre", "filtresi"), ("pompa", "pompası"), ("kol", "kolu"), ("gövde", "gövdesi"), ("sensör", "sensörü"),
     ("disk", "diski"), ("tampon", "tamponu"), ("ünite", "ünitesi"), ("jant", "jantı"), ("römork", "römorku")],
)  # fmt: skip
def test_the_possessive_follows_vowel_harmony(word, expected):
    assert possessive(word) == expected


@pytest.mark.parametrize(
    ("word", "expected"),
    [("kasnak", "kasnağı"), ("salıncak", "salıncağı"), ("elektrik", "elektriği"), ("basınç", "basıncı"),
     ("burç", "burcu"), ("kit", "kiti"), ("set", "seti"), ("disk", "diski"), ("şok", "şoku")],
)  # fmt: skip
def test_the_possessive_softens_a_final_consonant_where_turkish_does(word, expected):
    assert possessive(word) == expected


def test_plural_and_turkish_capitals():
    assert (plural("kapı"), plural("fren"), plural("ayna")) == ("kapılar", "frenler", "aynalar")
    assert upper("yağ filtresi") == "YAĞ FİLTRESİ" and capitalize("ısı kalkanı") == "Isı kalkanı"
    assert capitalize("iç ayna") == "İç ayna"


@pytest.mark.parametrize(
    ("english", "turkish"),
    [
        ("Oil filter", "Yağ filtresi"),
        ("Oil filter housing", "Yağ filtresi gövdesi"),
        ("Brake pad set, front axle", "Ön aks fren balata seti"),
        ("Brake disc, front left", "Ön sol fren diski"),
        ("Wiper blade, LH", "Sol silecek süpürgesi"),
        ("Clutch, gearbox", "Debriyaj, şanzıman"),
        ("Silencers", "Susturucular"),
        ("Doors", "Kapılar"),
        ("OIL FILTER", "YAĞ FİLTRESİ"),
        ("oil filter", "yağ filtresi"),
        ("Rubber mount", "Lastik takoz"),
        ("ABS sensor, rear right", "Arka sağ ABS sensörü"),
        ("Hexagon bolt M8x20", "Altıgen cıvata M8x20"),
        ("Bracket for vehicles with trailer hitch", "Çeki demiri bulunan araçlar için braket"),
        ("Oil seal w/o spring", "Keçe, yay olmadan"),
        ("Gasket incl. screws", "Conta, vidalar dahil"),
        ("Qty", "Adet"),
        ("Oil filter, bk. tablo: 103-010", "Yağ filtresi, bk. tablo: 103-010"),
        ("Lubrication {103-010}", "Yağlama {103-010}"),
        ("from 05.2016", "05.2016 tarihinden itibaren"),
        ("up to 11.2019", "11.2019 tarihine kadar"),
        ("Volkswagen Golf emblem", "Volkswagen Golf amblemi"),
        ("5Q0 615 301 F", "5Q0 615 301 F"),
        ("PR: 1AB", "PR: 1AB"),
        ("Brake discs", "Fren diskleri"),
        ("Oil filters, front", "Ön yağ filtreleri"),
        ("Door locks", "Kapı kilitleri"),
        ("Airbags", "Hava yastıkları"),
        ("Intercoolers", "Ara soğutucular"),
        ("Bulbs", "Ampuller"),
        ("Valves", "Valfler"),
        ("Brake shoes", "Fren pabuçları"),
        ("Fuses and relays", "Sigortalar ve röleler"),
        ("Nuts & bolts", "Somunlar ve cıvatalar"),
        ("Hose for vehicles with air conditioning and heated seats",
         "Klima ve ısıtmalı koltuklar bulunan araçlar için hortum"),
    ],
)  # fmt: skip
def test_names_translate_with_turkish_word_order_and_suffixes(english, turkish):
    translation = default_translator().translate(english)

    assert translation.text == turkish
    assert translation.complete


def test_unknown_words_stay_in_english_and_are_reported():
    translation = default_translator().translate("Quux bracket, front")

    assert translation.text == "Ön Quux braketi"
    assert translation.unknown == ("quux",) and not translation.complete


def test_an_added_term_wins_and_changes_the_version():
    plain = default_translator()
    taught = Translator([Term("quux", "kuks"), Term("oil filter", "yağ süzgeci")])

    assert taught.translate("Quux bracket").text == "Kuks braketi"
    assert taught.translate("Oil filter").text == "Yağ süzgeci"
    assert taught.version != plain.version and taught.knows("quux") and not plain.knows("quux")


def test_the_dictionary_is_general_not_just_the_sandbox():
    terms = builtin_terms()
    assert len(terms) >= 600
    assert {"wishbone", "glow plug", "heat shield", "windscreen", "cabin filter"} <= {term.english for term in terms}


def _sandbox_names() -> set[str]:
    names: set[str] = set()

    def walk(category) -> None:
        names.add(category.name_en)
        for child in category.children:
            walk(child)
        for schema in category.schemas:
            names.add(schema.title_en)
            names.update(part.name_en for part in schema.parts)
            names.update(part.remark for part in schema.parts if part.remark)

    for vehicle in sandbox_catalog().vehicles:
        for category in vehicle.categories:
            walk(category)
    return names


def test_the_sandbox_vocabulary_is_covered():
    translator = default_translator()
    tokens = {word.lower() for name in _sandbox_names() for word in name.replace(",", " ").split()}
    unknown = {word for name in _sandbox_names() for word in translator.translate(name).unknown}

    assert len(unknown) / len(tokens) <= 0.03, sorted(unknown)


REAL_WORLD = {
    "Heat shield": "Isı kalkanı",
    "Glow plug": "Kızdırma bujisi",
    "Wheel housing liner, front left": "Ön sol çamurluk davlumbazı",
    "Door seal, rear left": "Arka sol kapı fitili",
    "Brake caliper bracket": "Fren kaliper braketi",
    "Washer fluid reservoir": "Cam suyu haznesi",
    "Vacuum pump": "Vakum pompası",
    "Intake air temperature sensor": "Emme havası sıcaklık sensörü",
    "Guide sleeve": "Kılavuz kovanı",
    "Fuel injection pump": "Yakıt enjeksiyon pompası",
    "Cabin filter": "Polen filtresi",
    "Tailgate strut": "Bagaj amortisörü",
    "Stabilizer bush, front": "Ön viraj demiri lastiği",
    "Radiator hose, upper": "Üst radyatör hortumu",
    "Clutch slave cylinder": "Debriyaj alt merkezi",
    "Poly V-belt": "Kanallı kayış",
    "Engine mount, right": "Sağ motor takozu",
    "Wishbone, front left": "Ön sol salıncak",
    "Window regulator, electric, front right": "Ön sağ elektrikli cam krikosu",
    "Coolant hose for vehicles with air conditioning": "Klima bulunan araçlar için soğutma suyu hortumu",
    "Hex bolt": "Altıgen cıvata",
    "Hexagon nut, self-locking": "Kendinden kilitli altıgen somun",
    "Oval-head screw": "Oval başlı vida",
    "Cylinder head cover": "Külbütör kapağı",
    "Tensioning roller": "Gergi makarası",
    "Coolant expansion tank": "Soğutma suyu genleşme kabı",
    "Exhaust manifold gasket": "Egzoz manifoldu contası",
    "Ignition coil": "Ateşleme bobini",
    "Starter motor": "Marş motoru",
    "Tail light, right, outer": "Sağ dış stop lambası",
    "Windscreen wiper motor": "Ön cam silecek motoru",
    "Door handle, outside": "Dış kapı kolu",
    "Exterior mirror, left, electrically adjustable": "Sol elektrikli ayarlı dış dikiz aynası",
    "Bumper, front, primed": "Ön astarlı tampon",
    "Wing, front left": "Ön sol çamurluk",
    "Seat belt, rear centre": "Arka orta emniyet kemeri",
    "Tie rod end": "Rot başı",
    "Track rod": "Rot kolu",
    "Brake caliper, front left": "Ön sol fren kaliperi",
    "Brake disc, ventilated": "Havalı fren diski",
    "Handbrake cable": "El freni teli",
    "ABS sensor, rear right": "Arka sağ ABS sensörü",
    "Flywheel, dual-mass": "Çift kütleli volan",
    "Drive shaft, left": "Sol aks mili",
    "Gear lever knob": "Vites topuzu",
    "Crankshaft seal, front": "Ön krank keçesi",
    "Valve cover gasket": "Külbütör kapak contası",
    "Connecting rod bearing": "Biyel yatağı",
    "Wheel arch liner, front right": "Ön sağ çamurluk davlumbazı",
    "Hexagon socket head bolt M8X35": "Allen başlı cıvata M8X35",
    "Washer, 8.4x16": "Pul, 8.4x16",
    "Brake master cylinder": "Fren ana merkezi",
    "Brake shoe set": "Fren pabucu takımı",
    "Steering gear boot": "Direksiyon kutusu körüğü",
    "Spring seat, upper": "Üst yay koltuğu",
    "Window glass, front left": "Ön sol cam",
    "Door hinge, upper": "Üst kapı menteşesi",
    "Boot lid lock": "Bagaj kapağı kilidi",
    "Airbag module, driver side": "Sürücü tarafı hava yastığı modülü",
    "Xenon bulb": "Xenon ampulü",
    "Camshaft position sensor": "Eksantrik mili pozisyon sensörü",
    "Knock sensor": "Vuruntu sensörü",
    "Throttle body": "Gaz kelebeği gövdesi",
    "Main bearing shells": "Ana yatak kuşinetleri",
    "Engine mounting, left": "Sol motor takozu",
    "Fuel level sender": "Yakıt şamandırası",
    "Exhaust tail pipe": "Egzoz ucu",
    "Gear selector cable": "Vites seçme teli",
    "Propeller shaft": "Kardan mili",
    "Brake pad wear sensor": "Fren balata aşınma sensörü",
    "Central locking motor": "Merkezi kilit motoru",
    "Bonnet release cable": "Kaput açma teli",
    "Rear view mirror": "Dikiz aynası",
}


def test_the_collected_real_world_names_are_known():
    lines = (Path(__file__).with_name("real_world_names.txt")).read_text(encoding="utf-8").splitlines()
    names = [line for line in lines if line and not line.startswith("#")]
    translator = default_translator()
    partial = [name for name in names if not translator.translate(name).complete]

    assert len(names) >= 200
    assert len(partial) / len(names) <= 0.03, partial


@pytest.mark.parametrize(("english", "turkish"), REAL_WORLD.items())
def test_names_from_real_catalogs(english, turkish):
    assert default_translator().translate(english).text == turkish


WORDS = st.sampled_from(
    ["oil", "filter", "for", "vehicles", "with", "w/o", "incl.", "front", ",", "LH", "from", "05.2016", "up", "to",
     "{103-010}", "bk.", "tablo:", "brake", "discs", "x", "quux", "", "İÇ", "(", ")"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=80), st.lists(WORDS, max_size=10).map(" ".join)))
def test_any_text_translates_without_an_error(text):
    translation = default_translator().translate(text)

    assert isinstance(translation.text, str)
    assert all(word == word.lower() for word in translation.unknown)


def _catalog_names() -> list[tuple[str, str]]:
    lines = Path(__file__).with_name("catalog_names.tsv").read_text(encoding="utf-8").splitlines()
    return [(english, turkish) for english, turkish in (line.split("\t") for line in lines if line and line[0] != "#")]


def test_real_catalog_names_come_out_as_a_clerk_says_them():
    names = _catalog_names()
    old = (Path(__file__).with_name("real_world_names.txt")).read_text(encoding="utf-8").splitlines()
    translator = default_translator()
    wrong = [
        (english, turkish, said)
        for english, turkish in names
        if (said := translator.translate(english).text) != turkish
    ]
    for english, turkish, said in wrong:
        print(f"{english!r}: expected {turkish!r}, got {said!r}")

    assert len(names) >= 400 and len(dict(names)) == len(names)
    assert {name for name in old if name and not name.startswith("#")} <= dict(names).keys()
    assert 1 - len(wrong) / len(names) >= 0.97, wrong


@pytest.mark.parametrize(
    ("english", "turkish"),
    [
        ("Seal, oil pump", "Yağ pompası contası"),  # an inverted name, in English order again
        ("Gasket, exhaust manifold, rear", "Arka egzoz manifoldu contası"),
        ("Bracket, for alternator", "Alternatör braketi"),
        ("Bolt, hexagon head, M10X1,5X30", "Altıgen cıvata, M10X1,5X30"),
        ("SENSOR ASSY, OXYGEN, NO.2", "OKSİJEN SENSÖRÜ KOMPLE, NO.2"),
        ("HOSE - HEATER", "KALORİFER HORTUMU"),  # Ford's dash
        ("GASKET-EXHAUST MANIFOLD", "EGZOZ MANİFOLDU CONTASI"),  # Hyundai's hyphen
        ("Bracket f. alternator", "Alternatör braketi"),  # "for"/"f.": a compound
        ("Hose for turbocharger", "Turbo şarj hortumu"),
        ("Cover for ABS", "ABS kapağı"),
        ("Oil cooler with gasket", "Contalı yağ soğutucusu"),  # "with": the adjective -lı/-li/-lu/-lü
        ("Headlight w/ bulbs", "Ampullü far"),
        ("Fuel pump with sender unit", "Şamandıralı yakıt pompası"),
        ("Housing with oil cooler", "Yağ soğutuculu gövde"),
        ("Hub w/bearing, front", "Ön rulmanlı porya"),
        ("Hexagon bolt with washer M10X25", "Pullu altıgen cıvata M10X25"),
        ("Door handle, outer, rear left", "Arka sol dış kapı kolu"),  # front/rear, left/right, then the rest
        ("Seat, right front", "Ön sağ koltuk"),
        ("Exhaust rubber mounting", "Egzoz lastik takozu"),  # an adjective and a noun take the possessive
        ("Cylinder head cover assy", "Külbütör kapağı komple"),
        ("Heater valve, with seal, LH", "Sol contalı kalorifer musluğu"),
        ("Hose clamp 25-40", "Hortum kelepçesi 25-40"),  # a size is not the head
        ("Brake caliper, RH, cpl.", "Sağ fren kaliperi komple"),  # ASSY, cpl.: after the name
        ("Front bumper cover", "Ön tampon kaplaması"),  # "front" + "bumper cover"
        ("Brake pads, set", "Fren balata seti"),
        ("Spark plugs, set of 6", "Bujiler, 6'lı set"),
        ("Radiator fan, with control unit, 12V", "Kontrol üniteli radyatör fanı, 12V"),
        ("Lambda sensor, after catalytic converter", "Lambda sondası, katalitik konvertör sonrası"),
        ("Front axle beam", "Ön aks kirişi"),  # a position that names a part makes a compound
        ("Brake wheel cylinder", "Fren silindiri"),  # not "fren fren silindiri"
        ("Clutch kit, 3 pieces", "Debriyaj seti, 3 parça"),  # singular after a number
        ("Cover for wheel bolts", "Bijon cıvatası kapağı"),  # the noun before another is singular
        ("Bolt with collar", "Flanşlı cıvata"),  # "with" an adjective already
        ("Pipe, coolant, return", "Soğutma suyu dönüş borusu"),  # what a pipe carries goes before it
    ],
)  # fmt: skip
def test_catalog_conventions(english, turkish):
    translation = default_translator().translate(english)

    assert translation.text == turkish
    assert translation.complete


def test_a_word_of_an_all_capital_name_is_not_taken_for_an_acronym():
    translation = default_translator().translate("BOLT, SPARX")

    assert translation.unknown == ("sparx",)
    assert default_translator().translate("SENSOR, ABS").text == "ABS SENSÖRÜ"
