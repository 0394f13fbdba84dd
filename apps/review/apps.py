from django.apps import AppConfig


class ReviewConfig(AppConfig):
    name = "apps.review"
    label = "review"

    def ready(self) -> None:
        from apps.quotes.storage import BLOB_HOLDERS
        from apps.review.uploads import upload_blobs_pending

        if upload_blobs_pending not in BLOB_HOLDERS:
            BLOB_HOLDERS.append(upload_blobs_pending)
