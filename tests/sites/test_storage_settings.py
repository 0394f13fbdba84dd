"""Production storage from the environment: the disk by default, S3 when a bucket is named."""

from config.settings.storage import default_storage_from_env


def test_without_a_bucket_uploads_and_reports_stay_on_disk():
    assert default_storage_from_env({}) == {
        "BACKEND": "django.core.files.storage.FileSystemStorage"
    }


def test_a_bucket_turns_on_s3_with_the_given_endpoint_and_keys():
    storage = default_storage_from_env(
        {
            "AWS_STORAGE_BUCKET_NAME": "rightsize-prod",
            "AWS_S3_ENDPOINT_URL": "http://minio:9000",
            "AWS_ACCESS_KEY_ID": "key",
            "AWS_SECRET_ACCESS_KEY": "secret",
        }
    )
    assert storage["BACKEND"] == "storages.backends.s3.S3Storage"
    options = storage["OPTIONS"]
    assert options["bucket_name"] == "rightsize-prod" and options["location"] == "rightsize"
    assert options["endpoint_url"] == "http://minio:9000"
    assert (options["access_key"], options["secret_key"]) == ("key", "secret")
    assert options["default_acl"] is None
    assert "region_name" not in options  # unset variables are left to boto3's own lookup
