# pbm in a container, laid out like the systemd unit (contrib/systemd/pbm.service): pbm in
# /opt/pbm/.venv, its settings in /etc/pbm.toml, its data in /var/lib/pbm, run as `pbm`,
# started by the unit's own ExecStart= line. `docker compose up -d` builds and runs it.

FROM python:3.12-slim AS build
# Only what `pip install` needs (see .dockerignore): the package, its migrations, and the
# files pyproject.toml names (README.md, LICENSE).
COPY pyproject.toml README.md LICENSE /src/
COPY pbm /src/pbm
COPY migrations /src/migrations
RUN python -m venv /opt/pbm/.venv \
    && /opt/pbm/.venv/bin/pip install --no-cache-dir /src

FROM python:3.12-slim
# `docker compose exec pbm pbm users list`: pbm on the PATH, reading the image's settings.
ENV PATH=/opt/pbm/.venv/bin:$PATH \
    PBM_CONFIG=/etc/pbm.toml \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1
# A fixed uid, named in USER by number: a runtime can then see that it is not root.
RUN groupadd --system --gid 10001 pbm \
    && useradd --system --uid 10001 --gid pbm --home-dir /var/lib/pbm --no-create-home \
       --shell /usr/sbin/nologin pbm \
    && install -d -o pbm -g pbm -m 0700 /var/lib/pbm
COPY --from=build /opt/pbm/.venv /opt/pbm/.venv
COPY README.md config.example.toml /opt/pbm/
COPY contrib/docker/healthcheck.py /opt/pbm/healthcheck.py
COPY contrib/docker/pbm.toml /etc/pbm.toml

# The database and the Maildir (players' mail, with their passwords): owner only.
VOLUME /var/lib/pbm
WORKDIR /var/lib/pbm
USER 10001:10001
# SMTP (smtpd.port) and the web view (web.listen).
EXPOSE 2525 8080
# pbm serve answers with its 220 greeting (on the port its settings name).
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 \
    CMD ["/opt/pbm/.venv/bin/python", "/opt/pbm/healthcheck.py"]
# SIGTERM: pbm stops taking mail, puts undelivered replies back in the queue and exits 0.
STOPSIGNAL SIGTERM
# The same command line as ExecStart= in contrib/systemd/pbm.service (a test checks it).
# It creates the database on first start and migrates it after an upgrade of pbm.
CMD ["/opt/pbm/.venv/bin/pbm", "--config", "/etc/pbm.toml", "serve"]
