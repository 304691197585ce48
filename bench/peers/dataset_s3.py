"""The local S3 server of the dataset section (bench/peers/dataset_run.py):
moto in server mode on 127.0.0.1 (port chosen by the OS), started and
stopped by the driver, with dummy credentials; nothing leaves the machine.

Requests are counted ON THE SERVER, as python/tests/test_filesystems_s3.py
counts them: the werkzeug WSGI application moto serves is wrapped in a
middleware that records every request's method, path and Range header and
the body bytes the application returns, so the counts do not depend on what
the clients say."""

import logging
import os
import threading

BUCKET = "quiver-bench"
CREDENTIALS = {"key": "testing", "secret": "testing", "region": "us-east-1"}


class Counting:
    """WSGI middleware: logs (method, path, Range, body bytes) of every request."""

    def __init__(self, app):
        self.app = app
        self.log = []
        self.lock = threading.Lock()

    def __call__(self, environ, start_response):
        entry = [environ["REQUEST_METHOD"], environ.get("PATH_INFO", ""),
                 environ.get("HTTP_RANGE"), 0]
        with self.lock:
            self.log.append(entry)
        for chunk in self.app(environ, start_response):
            entry[3] += len(chunk)
            yield chunk

    def take(self):
        with self.lock:
            out, self.log = self.log, []
        return out


def summarize(log):
    """{requests, by_method {GET: n, HEAD: n, ...}, list_requests, range_gets,
    bytes (response bodies)} of a request log."""
    by = {}
    for method, path, rng, _ in log:
        by[method] = by.get(method, 0) + 1
    lists = sum(1 for m, p, _, _ in log if m == "GET" and p.rstrip("/").count("/") <= 1)
    return {"requests": len(log), "by_method": by, "list_requests": lists,
            "range_gets": sum(1 for m, _, r, _ in log if m == "GET" and r),
            "bytes": sum(e[3] for e in log)}


class Server:
    """The moto server, its counter, and the bucket holding the uploads."""

    def __init__(self):
        from moto.server import ThreadedMotoServer

        # (werkzeug logs every request on stderr: the counter keeps them.)
        logging.getLogger("werkzeug").setLevel(logging.ERROR)
        for k, v in {"AWS_ACCESS_KEY_ID": CREDENTIALS["key"],
                     "AWS_SECRET_ACCESS_KEY": CREDENTIALS["secret"],
                     "AWS_DEFAULT_REGION": CREDENTIALS["region"],
                     "AWS_EC2_METADATA_DISABLED": "true"}.items():
            os.environ.setdefault(k, v)
        self.server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
        self.server.start()
        host, port = self.server.get_host_and_port()
        self.counter = Counting(self.server._server.app)
        self.server._server.app = self.counter
        self.endpoint = f"http://{host}:{port}"
        import boto3

        self.client = boto3.client("s3", endpoint_url=self.endpoint,
                                   region_name=CREDENTIALS["region"],
                                   aws_access_key_id=CREDENTIALS["key"],
                                   aws_secret_access_key=CREDENTIALS["secret"])
        self.client.create_bucket(Bucket=BUCKET)

    def upload(self, local_root, prefix, files):
        """Uploads `files` (relative to local_root) under prefix/; returns bytes."""
        n = 0
        for rel in files:
            with open(os.path.join(local_root, rel), "rb") as f:
                data = f.read()
            self.client.put_object(Bucket=BUCKET, Key=f"{prefix}/{rel}", Body=data)
            n += len(data)
        self.counter.take()
        return n

    def spec(self):
        """What a peer needs to reach the bucket (the `s3` field of dsread)."""
        return {"endpoint": self.endpoint, "bucket": BUCKET, **CREDENTIALS}

    def stop(self):
        """Deletes the bucket's objects (moto keeps them in this process
        after its server stops) and stops the server; once."""
        if self.server is None:
            return
        try:
            objects = self.client.list_objects_v2(Bucket=BUCKET).get("Contents", [])
            while objects:
                self.client.delete_objects(Bucket=BUCKET, Delete={
                    "Objects": [{"Key": o["Key"]} for o in objects[:1000]]})
                objects = self.client.list_objects_v2(Bucket=BUCKET).get("Contents", [])
        finally:
            self.server.stop()
            self.server = None
