"""What the admin routes read and answer, for the OpenAPI document (the routes check their input themselves)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from app.auth.schemas import UserOut
from app.core.openapi import ApiModel
from app.vehicles.schemas import VIN_HELP, VIN_PATTERN


class CreateUserBody(ApiModel):
    email: str = Field(max_length=254)
    name: str = Field(max_length=100)
    password: str = Field(max_length=128)
    role: str | None = Field(None, max_length=20, examples=["user", "admin"])


class CreatedUser(ApiModel):
    user: UserOut


class ServiceTestBody(ApiModel):
    vin: str = Field(pattern=VIN_PATTERN, description=VIN_HELP)
    source: str = Field(max_length=20, examples=["catapi", "scrape", "portal", "vin_api", "wmi", "chain"])


class SourceReport(ApiModel):
    source: str
    success: bool
    outcome: str = Field(examples=["one", "candidates", "none", "failure", "timeout", "not_configured"])
    data: Any = Field(description="The cars found, or for wmi what the table knows (null when unknown).")
    error: str | None
    elapsed_ms: int


class ServiceTestResult(ApiModel):
    vin: str
    source: str
    results: list[SourceReport]


class CopyLogQuery(ApiModel):
    user: str = Field("", description="A user id, or part of an e-mail (any case).")
    vehicle_id: int | None = Field(None, ge=1)
    code: str = Field("", description="Part of the OEM code; separators are ignored.")
    from_: str = Field("", alias="from", description="YYYY-MM-DD, an Istanbul day, included.")
    to: str = Field("", description="YYYY-MM-DD, an Istanbul day, included.")
    page: int = Field(1, ge=1)
    page_size: int = Field(50, ge=1, le=100)


class CopyUser(ApiModel):
    id: str
    email: str | None
    name: str | None


class CopyVehicle(ApiModel):
    id: int
    vin: str | None
    brand: str | None
    model: str | None


class CopyPart(ApiModel):
    id: int
    name: str | None


class CopyLogItem(ApiModel):
    id: int
    oem_code: str
    created_at: str
    user: CopyUser | None
    vehicle: CopyVehicle | None
    part: CopyPart | None


class CopyLogPage(ApiModel):
    items: list[CopyLogItem]
    page: int
    page_size: int
    total: int
    has_more: bool


class TopCodesQuery(ApiModel):
    days: int = Field(30, ge=1, le=365)
    limit: int = Field(20, ge=1, le=100)


class TopCode(ApiModel):
    oem_code: str
    copies: int
    users: int
    last_copied_at: str
    part_name: str | None


class TopCodes(ApiModel):
    days: int
    since: str
    items: list[TopCode]


class QueueCounts(ApiModel):
    name: str = Field(examples=["default", "email", "prefetch", "translation"])
    queued: int
    started: int
    scheduled: int = Field(description="Delayed: retries and deferred jobs waiting for their time.")
    deferred: int
    failed: int
    finished: int


class QueueOverview(ApiModel):
    queues: list[QueueCounts]


class FailedJob(ApiModel):
    id: str
    function: str | None
    args: list[str]
    enqueued_at: str | None
    ended_at: str | None
    error: str = Field(description="The last line of the job's error.")


class FailedJobs(ApiModel):
    queue: str
    items: list[FailedJob]
    total: int
    page: int


class FailedJobsQuery(ApiModel):
    page: int = Field(1, ge=1)


class JobHandled(ApiModel):
    status: bool
    job_id: str


class DashboardQuery(ApiModel):
    from_: str | None = Field(None, alias="from", description="YYYY-MM-DD; the last 30 days by default")
    to: str | None = Field(None, description="YYYY-MM-DD, included; today by default")


class Dashboard(ApiModel):
    from_: str = Field(alias="from")
    to: str
    users: dict[str, Any] = Field(description="total, verified, byStatus, newPerDay")
    shops: dict[str, int] = Field(description="shops, members, seatsInUse (every member holds a seat)")
    subscriptions: dict[str, Any] = Field(description="trial, active, activeByPlan (plan/period), mrrKurus")
    conversion: dict[str, Any] = Field(description="trials started in the range, paid since, rate")
    decodes: dict[str, Any] = Field(description="perDay by resultKind; refused (reason, count)")
    sources: list[dict[str, Any]] = Field(description="per source: calls, wins, successRate, p50Ms, p95Ms")
    demand: dict[str, Any] = Field(description="unrecognisedWmis, vehicleRequests, refusedBrands (top 10)")
    prefetch_backlog: int | None


class UsersQuery(ApiModel):
    q: str | None = Field(None, max_length=100, description="Part of a name or e-mail")
    status: str | None = Field(None, examples=["active", "suspended", "banned"])
    plan: str | None = Field(None, description="A live plan's key")
    page: int = Field(1, ge=1)


class UserList(ApiModel):
    items: list[dict[str, Any]]
    page: int
    has_more: bool


class UserDetail(ApiModel):
    user: dict[str, Any]
    subscriptions: list[dict[str, Any]]
    payments: list[dict[str, Any]]
    decodes: list[dict[str, Any]]
    sessions: list[dict[str, Any]]
    referrals: list[dict[str, Any]]


class ReferralsQuery(ApiModel):
    q: str | None = Field(None, max_length=100)
    page: int = Field(1, ge=1)


class ShopsQuery(ApiModel):
    q: str | None = Field(None, max_length=100, description="Part of the shop's name or of a member's name or e-mail")
    page: int = Field(1, ge=1)


class Seats(ApiModel):
    in_use: int = Field(description="Members of the shop: each holds a seat.")
    limit: int | None = Field(description="The seats the plan allows; null until seats are known.")


class ShopRow(ApiModel):
    id: str
    name: str
    members: int
    seats: Seats
    branches: int
    plan: str | None = Field(description="The key of the shop's live plan (trial or active), null without one.")
    decodes_last30_days: int = Field(alias="decodesLast30Days")
    created_at: str


class ShopList(ApiModel):
    items: list[ShopRow]
    page: int
    has_more: bool


class ShopMember(ApiModel):
    id: str
    name: str
    email: str
    role: str = Field(examples=["owner", "manager", "clerk"])
    branch: str | None
    status: str


class ShopBranch(ApiModel):
    id: int
    name: str
    address: str | None
    phone: str | None


class ShopDetail(ApiModel):
    shop: ShopRow
    members: list[ShopMember]
    branches: list[ShopBranch]
    subscriptions: list[dict[str, Any]]
