"""API v1: everything under /api/v1/, authenticated by a Bearer token or the session."""

from ninja import Router

from apps.api.v1 import catalog, decisions, reviews

router = Router()
router.add_router("", reviews.router)
router.add_router("", decisions.router)
router.add_router("", catalog.router)
