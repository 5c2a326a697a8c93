"""The shop's stock lists on the catalog's part rows: each branch has its list in use; a member sees his own branch's
row first and then what every other branch of his shop holds ("Kadıköy: 2 · Ümraniye: 5"), on the parts table, its
API and the search; nothing of another shop ever, the kept views and fragments notwithstanding."""

from __future__ import annotations

import pytest

from tests.catalog.test_query_counts import SHARED_CODE, brand, catalog_of  # noqa: F401 - fixture used here
from tests.catalog.test_shelf import FILTER, category_api, category_page, shown_text
from tests.support.payments import sign_in_client
from tests.support.shelf import shelf_list
from tests.support.shops import add_branch, colleague, rename_branch


@pytest.fixture
def drawing(brand):  # noqa: F811
    return catalog_of(brand, 2)


@pytest.fixture
def branches(dealer):
    """The dealer's shop with two branches, Kadıköy (his) and Ümraniye, each with its list: 2 and 5 air filters."""
    kadikoy = rename_branch(dealer.branch_id, "Kadıköy")
    umraniye = add_branch(dealer.shop_id, "Ümraniye")
    shelf_list(dealer, [{**FILTER, "stock": 2}])
    shelf_list(dealer, [{**FILTER, "stock": 5, "price": "1300"}], branch_id=umraniye.id)
    return kadikoy, umraniye


@pytest.fixture
def clerk_client(app, create_user, dealer, branches):
    """A clerk of the dealer's shop working in Ümraniye, signed in on a client of his own; the brands he opens are the
    shop's plan (the dealer's subscription), not a subscription of his own."""
    clerk = colleague(create_user, dealer, "clerk", branches[1])
    client = app.test_client()
    sign_in_client(client, clerk.email)
    return client


def test_a_part_row_shows_the_own_branch_first_then_the_other_branches(client, dealer, drawing, branches):
    shelf = category_api(client, drawing)[SHARED_CODE]["shelf"]

    assert shelf["stock"] == 2 and shelf["price"] == "1250.50"  # the own branch's row
    assert shelf["branches"] == [{"name": "Kadıköy", "stock": 2}, {"name": "Ümraniye", "stock": 5}]
    assert "Kadıköy: 2 · Ümraniye: 5" in shown_text(category_page(client, drawing))


def test_a_clerk_of_the_other_branch_sees_his_branch_first(client, clerk_client, drawing, branches):
    category_page(client, drawing)  # the owner's page kept first: the clerk's is not his

    shelf = category_api(clerk_client, drawing)[SHARED_CODE]["shelf"]

    assert shelf["stock"] == 5 and shelf["price"] == "1300.00"
    assert [branch["name"] for branch in shelf["branches"]] == ["Ümraniye", "Kadıköy"]
    assert "Ümraniye: 5 · Kadıköy: 2" in shown_text(category_page(clerk_client, drawing))


def test_a_row_only_another_branch_carries_is_shown_with_that_branch(client, dealer, drawing):
    umraniye = add_branch(dealer.shop_id, "Ümraniye")
    shelf_list(dealer, [{**FILTER, "stock": 4}], branch_id=umraniye.id)

    shelf = category_api(client, drawing)[SHARED_CODE]["shelf"]

    assert shelf["branches"] == [{"name": "Ümraniye", "stock": 4}]
    assert "Ümraniye: 4" in shown_text(category_page(client, drawing))


def test_a_branch_list_changed_is_shown_at_once(client, dealer, drawing, branches):
    category_page(client, drawing)
    shelf_list(dealer, [{**FILTER, "stock": 9}], branch_id=branches[1].id)

    assert "Kadıköy: 2 · Ümraniye: 9" in shown_text(category_page(client, drawing))


def test_another_shop_sees_nothing_of_the_branches(app, client, create_user, make_subscription, drawing, branches):
    stranger = create_user()
    make_subscription(stranger, "active", plan_key="full")
    other = app.test_client()
    sign_in_client(other, stranger.email)
    category_page(client, drawing)

    assert category_api(other, drawing)[SHARED_CODE]["shelf"] is None
    html = category_page(other, drawing)
    assert "data-shelf" not in html and "Kadıköy" not in html and "Ümraniye" not in html
    search = other.get(f"/vehicles/{drawing.vehicle_id}", query_string={"q": "HF 42"}).get_data(as_text=True)
    assert "Ümraniye" not in search and "Kadıköy" not in search


def test_the_search_shows_every_branch(client, drawing, branches):
    html = client.get(f"/vehicles/{drawing.vehicle_id}", query_string={"q": "HF 42"}).get_data(as_text=True)

    assert "Kadıköy: 2 · Ümraniye: 5" in shown_text(html)
