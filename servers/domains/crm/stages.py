"""Moving deals through their pipeline's stages (winning, losing, reopening) and the forecast."""

from __future__ import annotations

from servers.domains.crm.deals import reopen_close_date
from servers.domains.crm.model import Account, Contact, Deal, LostReason, Pipeline, Stage, StageHistory, crm
from servers.domains.crm.rules import (
    EDITABLE,
    AnyTerritory,
    AnyUser,
    _m,
    check_edit,
    label,
    lifecycle_forward,
    pipeline_stages,
    stage_of,
    stage_requirements,
)
from servers.kit import Db, Month, Ref, ToolError


def _check_move(db: Db, actor: dict, deal: dict, cur: dict, st: dict, lost_reason: str | None) -> None:
    """Every rule of a stage move: same pipeline, not a no-op, closed stages final for reps,
    wins only from a late stage, and what the target stage requires."""
    if st["pipeline_id"] != deal["pipeline_id"]:
        raise ToolError(
            f"stage {st['id']} belongs to pipeline {st['pipeline_id']}; deal {label(deal)} is in pipeline "
            f"{deal['pipeline_id']}, whose stages are {pipeline_stages(db, deal['pipeline_id'])}"
        )
    if st["id"] == cur["id"]:
        raise ToolError(f"deal {label(deal)} is already in stage {st['id']} ({st['name']})")
    if lost_reason and not (st["is_closed"] and not st["is_won"]):
        raise ToolError(f"lost_reason applies only to a lost stage; {st['id']} ({st['name']}) is not one")
    if cur["is_closed"]:
        if actor["role"] == "rep":
            raise ToolError(
                f"deal {label(deal)} is closed ({cur['name']}); closed deals are final, only a manager can reopen one"
            )
        if st["is_closed"]:
            raise ToolError(
                f"deal {label(deal)} is closed ({cur['name']}); reopen it to an open stage first, not {st['id']}"
            )
    if st["is_won"] and not cur["win_ready"]:
        ready = db.all(
            "SELECT id FROM stages WHERE pipeline_id = ? AND win_ready = 1 ORDER BY position",
            deal["pipeline_id"],
        )
        raise ToolError(
            f"deal {label(deal)} is in {cur['id']} ({cur['name']}); a deal can be won only from "
            f"{', '.join(r['id'] for r in ready)}"
        )
    stage_requirements(db, deal, st, lost_reason)


@crm.tool(
    writes=[Deal, StageHistory, Account, Contact],
    returns=Deal,
    says=[
        "move {deal} to {stage}",
        "advance {deal} to the {stage} stage",
        "we lost {deal}: move it to {stage}, reason {lost_reason}",
        "reopen {deal} and put it back in {stage}",
    ],
)
def move_deal_stage(
    db: Db, deal: Ref[Deal, EDITABLE], stage: Ref[Stage], lost_reason: LostReason | None = None
) -> dict:
    """Move a deal to another stage of its pipeline.

    Won stages (won, renewed) need an amount above 0 and a primary contact, and only follow a
    late stage; lost stages (lost, churned) need a lost_reason. Closing sets the close date to
    today. Closed deals are final for reps; a manager can reopen one to an open stage.

    Args:
        deal: The deal.
        stage: The stage to move it to, e.g. negotiation.
        lost_reason: Why it was lost (only for lost or churned).
    """
    actor = db.actor()
    d = db.get(Deal, deal)
    check_edit(db, actor, Deal, d)
    st, cur = stage_of(db, stage), db.get(Stage, d["stage_id"])
    _check_move(db, actor, d, cur, st, lost_reason)
    changes: dict = {"stage_id": st["id"], "last_activity_at": db.stamp()}
    if not st["is_closed"]:
        changes.update(status="open", closed_at=None, lost_reason=None)
        if cur["is_closed"]:
            changes["close_date"] = reopen_close_date(db, d)
    else:
        status = "won" if st["is_won"] else "lost"
        changes.update(
            status=status, closed_at=db.stamp(), close_date=db.today.isoformat(), lost_reason=lost_reason
        )
    if st["is_won"]:
        account = db.get(Account, d["account_id"])
        if account["type"] == "prospect":
            db.update(Account, account["id"], type="customer")
        contact = db.get(Contact, d["primary_contact_id"])
        if lifecycle_forward(contact, "customer") != contact["lifecycle_stage"]:
            db.update(Contact, contact["id"], lifecycle_stage="customer")
    db.add(
        StageHistory,
        deal_id=deal,
        from_stage_id=cur["id"],
        to_stage_id=st["id"],
        by_id=actor["id"],
        at=db.stamp(),
    )
    return db.update(Deal, deal, **changes)


def _deal_filters(
    owner: str | None, team: str | None, close_month: str | None
) -> tuple[list[str], list[str]]:
    """The join conditions (deal ``d`` in stage ``s``) and their parameters for the given filters."""
    conds: list[str] = ["d.stage_id = s.id"]
    params: list[str] = []
    if owner:
        conds.append("d.owner_id = ?")
        params.append(owner)
    if team:
        conds.append("d.owner_id IN (SELECT id FROM users WHERE territory_id = ?)")
        params.append(team)
    if close_month:
        conds.append("substr(d.close_date, 1, 7) = ?")
        params.append(close_month)
    return conds, params


@crm.tool(
    says=[
        "give me the pipeline summary for {pipeline}",
        "what is the weighted forecast of {owner} in {pipeline}?",
        "summarize {pipeline} for deals closing in {close_month}",
        "how does {pipeline} look for the team of {team}?",
    ],
)
def get_pipeline_summary(
    db: Db,
    pipeline: Ref[Pipeline],
    owner: AnyUser | None = None,
    team: AnyTerritory | None = None,
    close_month: Month | None = None,
) -> dict:
    """Per stage of a pipeline: how many deals, their amount, the stage probability and the weighted
    forecast (amount x probability); totals for open deals and won deals.

    Args:
        pipeline: sales or renewals.
        owner: Only deals this user owns.
        team: Only deals owned by this team (named like its territory).
        close_month: Only deals closing in this month, YYYY-MM, e.g. 2026-06.
    """
    pipe = db.get(Pipeline, pipeline)
    conds, params = _deal_filters(owner, team, close_month)
    rows = db.all(
        "SELECT s.id AS stage, s.name, s.probability, s.is_closed, s.is_won, count(d.id) AS deals, "
        f"coalesce(sum(d.amount), 0) AS amount FROM stages s LEFT JOIN deals d ON {' AND '.join(conds)} "
        "WHERE s.pipeline_id = ? GROUP BY s.id ORDER BY s.position",
        *params,
        pipeline,
    )
    stages = []
    for r in rows:
        weighted = round(r["amount"] * r["probability"], 2) if not r["is_closed"] else 0.0
        stages.append(
            {
                "stage": r["stage"],
                "name": r["name"],
                "probability": r["probability"],
                "deals": r["deals"],
                "amount": round(r["amount"], 2),
                "weighted": weighted,
                "closed": bool(r["is_closed"]),
            }
        )
    open_rows = [s for s in stages if not s["closed"]]
    won = [s for s in stages if s["closed"] and rows[stages.index(s)]["is_won"]]
    forecast = round(sum(s["weighted"] for s in open_rows), 2)
    return {
        "pipeline": {"id": pipe["id"], "name": pipe["name"]},
        "filters": {"owner": owner, "team": team, "close_month": close_month},
        "stages": stages,
        "open_deals": sum(s["deals"] for s in open_rows),
        "open_amount": round(sum(s["amount"] for s in open_rows), 2),
        "weighted_forecast": forecast,
        "won_amount": round(sum(s["amount"] for s in won), 2),
        "summary": f"{sum(s['deals'] for s in open_rows)} open deals, weighted forecast {_m(forecast)}",
    }
