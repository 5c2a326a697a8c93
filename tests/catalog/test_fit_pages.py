"""Issue 30 on the dealer's pages, through HTTP: a drawing's rows that do not fit the vehicle collapsed and their
hotspots dimmed, maybes marked with their condition, the question answered (and taken back) by a form with and
without HTMX, each dealer seeing his own answers with his colleague's offered, the "only what fits" switch hiding the
rows that do not fit and remembered, the tree's counts, the search's marks, and the CSV and print's fit column."""

from __future__ import annotations

import csv
import io

import pytest
import sqlalchemy as sa

from app.catalog.models import Category, Part
from app.extensions import db
from app.sources.sandbox.catalog import VIN_GOLF
from tests.browse.test_opening import GOLF, golf_car, open_car
from tests.catalog.test_fit_api import colleague, decoded, get, leaves  # noqa: F401 - the colleague fixture is used here
from tests.catalog.test_pages import HX, main_area, page, text_of, tree_area
from tests.conftest import csrf_token_from
from tests.support.markup import elements, the

NOT_FITTING = "Bu araca uymayan parçalar"


@pytest.fixture
def golf(dealer, decode_vin, upstreams) -> int:
    return decoded(decode_vin, VIN_GOLF)


def oil_filter(client, golf: int) -> dict:
    """The Golf's oil filter drawing (Motor › Silindir bloğu › Yağ filtresi 103-010) as the API gives it to `client`:
    some rows that do not fit, a few maybes and a question."""
    node = get(client, f"/api/vehicles/{golf}/categories")["categories"][0]
    while True:
        detail = get(client, f"/api/vehicles/{golf}/categories/{node['id']}")
        if detail["category"]["leaf"]:
            assert detail["fit"]["question"], "the sandbox Golf's first drawing asks a question"
            return detail
        node = detail["children"][0]


def leaf_url(golf: int, detail: dict) -> str:
    return f"/vehicles/{golf}/categories/{detail['category']['id']}"


def by_status(detail: dict, status: str) -> list[dict]:
    return [part for part in detail["parts"] if part["fit"]["status"] == status]


def table_row_ids(main: str, selector: str) -> list[str]:
    """The OEM codes of the rows of the table(s) `selector` picks."""
    return [
        row.select_one(".oem-code").get_text() for row in elements(main, f"{selector} .part-row:not(.is-reference)")
    ]


def codes(parts: list[dict]) -> list[str]:
    return [part["oemCode"] for part in parts if part["reference"] is None]


def post_form(client, url: str, token: str, fields: dict, headers: dict | None = None):
    return client.post(url, data={"csrf_token": token, **fields}, headers=headers or {})


def question_form(main: str) -> tuple[str, dict]:
    form = the(main, "form.fit-question")
    return form["action"], {"fact": the(str(form), 'input[name="fact"]')["value"]}


# --- the drawing ------------------------------------------------------------------------------------------------


def test_rows_that_do_not_fit_are_collapsed_dimmed_and_their_hotspots_dimmed(client, golf):
    detail = oil_filter(client, golf)
    main = main_area(page(client, leaf_url(golf, detail)))

    no, maybe = by_status(detail, "no"), by_status(detail, "maybe")
    assert no and maybe
    assert table_row_ids(main, ".parts-table:not(.not-fitting-table)") == codes(
        [part for part in detail["parts"] if part["fit"]["status"] != "no"]
    )
    collapsed = the(main, "details.not-fitting")
    assert not collapsed.has_attr("open")
    assert collapsed.summary.get_text() == f"{NOT_FITTING} ({len(no)})"
    assert table_row_ids(main, ".not-fitting-table") == codes(no)
    for row in elements(main, ".not-fitting-table .part-row"):
        assert "is-fit-no" in row["class"]
    # The maybes say what they hang on, in Turkish, as the API's reasons do.
    marks = [mark.get_text() for mark in elements(main, ".part-row.is-fit-maybe .fit-maybe")]
    assert len(marks) == len(maybe)
    for part, mark in zip(maybe, marks, strict=True):
        unknown = [reason["text"] for reason in part["fit"]["reasons"] if reason["code"] == "unknown"]
        assert mark.startswith("Belki: ") and all(text in mark for text in unknown)
    # A position whose every row does not fit is dimmed on the picture, and only such a position.
    positions: dict[str, set[str]] = {}
    for part in detail["parts"]:
        if part["position"]:
            positions.setdefault(part["position"], set()).add(part["fit"]["status"])
    dimmed = {spot["data-position"] for spot in elements(main, ".hotspot.is-not-fitting")}
    assert dimmed and dimmed == {position for position, found in positions.items() if found == {"no"}}


def test_the_tree_counts_what_fits_in_each_drawing(client, golf):
    detail = oil_filter(client, golf)

    tree = tree_area(page(client, leaf_url(golf, detail)))

    node = the(tree, f"#tree-node-{detail['category']['id']}")
    assert node.select_one(".fit-count").get_text() == f"{len(by_status(detail, 'yes'))} uyan"
    assert "is-not-fitting" not in node["class"]  # greyed only when nothing fits


def test_a_drawing_where_nothing_fits_is_greyed_and_says_so(client, golf):
    """Every row made a no for this dealer (his answers are the way): the tree greys the leaf and the table is empty."""
    detail = oil_filter(client, golf)
    leaf_id = detail["category"]["id"]
    db.session.execute(sa.update(Part).where(Part.category_id == leaf_id).values(fit_status="no"))
    yes_and_maybe = len(detail["parts"]) - len(by_status(detail, "no"))
    db.session.execute(
        sa.update(Category)
        .where(Category.id == leaf_id)
        .values(fit_yes=0, fit_maybe=0, fit_no=Category.fit_no + yes_and_maybe)
    )

    html = page(client, leaf_url(golf, detail))

    main, tree = main_area(html), tree_area(html)
    assert "is-not-fitting" in the(tree, f"#tree-node-{detail['category']['id']}")["class"]
    assert "Bu parçaların hiçbiri bu araca uymuyor." in text_of(main)
    assert not elements(main, ".parts-table:not(.not-fitting-table)")


# --- the question -----------------------------------------------------------------------------------------------


def test_answering_the_question_resolves_its_maybes_for_this_dealer_alone(client, golf, colleague):  # noqa: F811
    detail = oil_filter(client, golf)
    question = detail["fit"]["question"]
    hanging = [part for part in by_status(detail, "maybe") if part["fit"]["question"] == question["fact"]]
    url = leaf_url(golf, detail)
    html = page(client, url)
    main = main_area(html)
    action, fields = question_form(main)
    buttons = elements(main, 'form.fit-question button[name="value"]')
    assert [button.get_text() for button in buttons] == [option["label"] for option in question["options"]]
    assert question["text"] in text_of(main)

    answered = post_form(client, action, csrf_token_from(html), {**fields, "value": buttons[0]["value"]})

    assert answered.status_code == 303 and answered.headers["Location"].endswith(url)
    after = get(client, f"/api/vehicles/{golf}/categories/{detail['category']['id']}")
    settled = {part["id"]: part["fit"] for part in after["parts"]}
    assert all(settled[part["id"]]["status"] in ("yes", "no") for part in hanging)
    mine = main_area(page(client, url))
    assert len(elements(mine, ".part-row.is-fit-maybe")) == len(by_status(after, "maybe"))
    answer_text = the(mine, ".fit-answers .fit-answer-text").get_text()
    assert answer_text == after["fit"]["answers"][0]["text"]
    assert the(mine, ".fit-answers button").get_text() == "Değiştir"

    # The colleague's page still has the maybes, and offers the answer to take over.
    theirs_html = page(colleague, url)
    theirs = main_area(theirs_html)
    assert len(elements(theirs, ".part-row.is-fit-maybe")) == len(by_status(detail, "maybe"))
    offer = the(theirs, "form.fit-colleague")
    assert offer.span.get_text().startswith("1 başka bayi: ")
    assert offer.button.get_text() == "Kullan" and offer.button["value"] == buttons[0]["value"]

    # Taken over with HTMX: the main area comes back with the maybes settled, the same as the first dealer's.
    token = csrf_token_from(theirs_html)
    fields = {"fact": question["fact"], "value": offer.button["value"]}
    swapped = post_form(colleague, offer["action"], token, fields, HX)
    assert swapped.status_code == 200 and "HX-Request" in swapped.headers["Vary"]
    fragment = swapped.get_data(as_text=True)
    assert "<html" not in fragment and fragment.count('id="catalog-main"') == 1
    assert len(elements(fragment, ".part-row.is-fit-maybe")) == len(by_status(after, "maybe"))
    assert table_row_ids(fragment, ".not-fitting-table") == table_row_ids(mine, ".not-fitting-table")


def test_changing_an_answer_asks_the_question_again(client, golf):
    detail = oil_filter(client, golf)
    url = leaf_url(golf, detail)
    html = page(client, url)
    action, fields = question_form(main_area(html))
    first = elements(main_area(html), 'form.fit-question button[name="value"]')[0]["value"]
    post_form(client, action, csrf_token_from(html), {**fields, "value": first})
    html = page(client, url)
    change = the(main_area(html), "form.fit-answer")

    cleared = post_form(client, change["action"], csrf_token_from(html), {"fact": fields["fact"]}, HX)

    assert cleared.status_code == 200
    fragment = cleared.get_data(as_text=True)
    assert not elements(fragment, ".fit-answers")
    assert question_form(fragment)[1] == fields
    assert len(elements(fragment, ".part-row.is-fit-maybe")) == len(by_status(detail, "maybe"))


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"fact": "no_such_fact", "value": "true"}, "Araç hakkında böyle bir soru yok."),
        ({"fact": "ş" * 500, "value": "true"}, "Araç hakkında böyle bir soru yok."),
        ({"value": '"four"'}, "1 ile 9 arasında bir tam sayıyla yanıtlayın."),  # the oil filter asks for the doors
        ({"value": "{not json"}, "Bu yanıt okunamadı."),
        ({"value": ""}, "Bir yanıt seçin ya da girin."),
        ({"number": "4x"}, "Bir tam sayı girin."),
    ],
)
def test_a_bad_answer_is_refused_in_turkish_beside_the_question(client, golf, fields, message):
    detail = oil_filter(client, golf)
    url = leaf_url(golf, detail)
    html = page(client, url)
    action, defaults = question_form(main_area(html))
    assert defaults["fact"] == "doors"
    token = csrf_token_from(html)

    refused = post_form(client, action, token, {**defaults, **fields})
    swapped = post_form(client, action, token, {**defaults, **fields}, HX)

    assert refused.status_code == 400
    assert the(main_area(refused.get_data(as_text=True)), ".fit-panel .notice-error").get_text() == message
    assert swapped.status_code == 200  # htmx swaps no error status: the reason shows beside the question
    assert the(swapped.get_data(as_text=True), ".fit-panel .notice-error").get_text() == message
    assert not get(client, f"/api/vehicles/{golf}/fit")["answers"]


def test_the_forms_need_their_csrf_token(client, golf):
    detail = oil_filter(client, golf)
    action, fields = question_form(main_area(page(client, leaf_url(golf, detail))))

    refused = client.post(action, data={**fields, "value": "4"})

    assert refused.status_code == 403  # the CSRF refusal (app.core.errors), in Turkish
    assert "Formun süresi dolmuş veya form bu siteden gönderilmemiş." in refused.get_data(as_text=True)
    assert not get(client, f"/api/vehicles/{golf}/fit")["answers"]


# --- the switch -------------------------------------------------------------------------------------------------


def test_only_what_fits_hides_the_rows_that_do_not_fit_and_is_remembered(client, golf):
    detail = oil_filter(client, golf)
    url = leaf_url(golf, detail)
    html = page(client, url)
    switch = the(main_area(html), "form.fit-switch")
    assert switch.button["aria-pressed"] == "false" and switch.button.get_text() == "Sadece uyanlar"

    turned = post_form(client, switch["action"], csrf_token_from(html), {"fitting_only": "1"}, HX)

    no = by_status(detail, "no")
    fragment = turned.get_data(as_text=True)
    assert turned.status_code == 200
    assert not elements(fragment, "details.not-fitting") and not elements(fragment, ".part-row.is-fit-no")
    assert the(fragment, "form.fit-switch button")["aria-pressed"] == "true"
    assert the(fragment, ".fit-hidden").get_text() == f"Uymayan {len(no)} parça gizlendi."
    assert elements(fragment, ".hotspot-empty.is-not-fitting")  # their positions stay on the picture, dimmed
    # Remembered: a whole page, another drawing, another session of the same dealer.
    again = main_area(page(client, url))
    assert not elements(again, "details.not-fitting")
    other = get(client, f"/api/vehicles/{golf}/categories/{detail['category']['parentId']}")["children"][1]
    other_main = main_area(page(client, f"/vehicles/{golf}/categories/{other['id']}"))
    assert the(other_main, "form.fit-switch button")["aria-pressed"] == "true"
    assert not elements(other_main, ".part-row.is-fit-no")

    # Turned off without HTMX: back to the drawing (303), the rows collapsed again.
    html = page(client, url)
    off = post_form(client, switch["action"], csrf_token_from(html), {"fitting_only": "0"})
    assert off.status_code == 303 and off.headers["Location"].endswith(url)
    assert the(main_area(page(client, url)), "details.not-fitting").summary.get_text() == f"{NOT_FITTING} ({len(no)})"


def test_a_search_hit_shows_its_fit_for_the_vehicle(client, golf):
    oil_filter(client, golf)
    found = get(client, f"/api/categories/search/{golf}?q=oil filter")["parts"]
    assert {part["fit"]["status"] for part in found} >= {"maybe", "no"}

    main = main_area(page(client, f"/vehicles/{golf}?q=oil filter"))

    rows = elements(main, ".search-parts .part-row")
    assert len(rows) == len(found)
    for row, part in zip(rows, found, strict=True):
        status = part["fit"]["status"]
        assert ("is-fit-no" in row["class"]) == (status == "no")
        assert bool(row.select(".fit-no")) == (status == "no") and bool(row.select(".fit-maybe")) == (status == "maybe")


# --- the CSV and the print page ---------------------------------------------------------------------------------


def test_the_csv_and_the_print_page_say_whether_each_row_fits(client, golf):
    detail = oil_filter(client, golf)
    base = f"/vehicles/{golf}/categories/{detail['category']['id']}"

    response = client.get(f"{base}/parts.csv")
    header, *rows = list(csv.reader(io.StringIO(response.data.decode("utf-8-sig"), newline=""), delimiter=";"))
    printed = page(client, f"{base}/print")

    assert header[-1] == "Araca uyum"
    labels = {"yes": "Uyar", "no": "Uymaz", "maybe": "Belki"}
    for row, part in zip(rows, detail["parts"], strict=True):
        assert row[-1].split(":")[0] == labels[part["fit"]["status"]]
        if part["fit"]["status"] != "yes":
            assert row[-1].startswith(labels[part["fit"]["status"]] + ": ")  # with what it hangs on
    assert "Araca uyum" in [th.get_text() for th in elements(printed, ".print-table th")]
    cells = [cell.get_text() for cell in elements(printed, ".print-table td.print-fit")]
    assert cells == [row[-1] for row in rows]  # every row, in the drawing's order, whatever the switch


def test_where_used_marks_a_row_that_does_not_fit_its_vehicle(client, golf):
    detail = oil_filter(client, golf)
    part = next(part for part in by_status(detail, "no") if part["reference"] is None)

    panel = page(client, f"/vehicles/{golf}/parts/{part['id']}/where-used", headers=HX)

    this_row = next(item for item in elements(panel, ".where-used-places li") if item.select("a[aria-current]"))
    assert this_row.select_one(".fit-no").get_text().startswith("Uymaz")


def test_a_browsed_car_asks_for_its_build_month_with_a_month_input(client, dealer, upstreams):
    """Without a VIN the variant fixes no build date: the drawing asks for the month, and the answer settles it."""
    opened = open_car(client, f"/api/browse/catapi/{GOLF}/cars/{golf_car(client)}/open")
    vehicle_id = opened["vehicleId"]
    detail = next(
        item for item in leaves(client, vehicle_id) if (item["fit"]["question"] or {}).get("input") == "month"
    )
    url = leaf_url(vehicle_id, detail)
    html = page(client, url)
    month = the(main_area(html), 'form.fit-question input[type="month"]')
    assert month["name"] == "month" and month.has_attr("required")
    action, fields = question_form(main_area(html))
    assert fields == {"fact": "build_date"}

    answered = post_form(client, action, csrf_token_from(html), {**fields, "month": "2017-09"})

    assert answered.status_code == 303
    after = get(client, f"/api/vehicles/{vehicle_id}/categories/{detail['category']['id']}")
    assert [answer["value"] for answer in after["fit"]["answers"]] == ["2017-09"]
    still = [part for part in by_status(after, "maybe") if part["fit"]["question"] == "build_date"]
    assert len(still) < len([part for part in by_status(detail, "maybe") if part["fit"]["question"] == "build_date"])
    assert the(main_area(page(client, url)), ".fit-answer-text").get_text() == after["fit"]["answers"][0]["text"]
