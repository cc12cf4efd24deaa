# Two stages. The first builds a wheel from the whole source tree (less .dockerignore), so the image
# holds exactly the packages pyproject.toml's packages.find lists, as `pip install toolground` would:
# a package added there is in the image without touching this file (tests/test_packaging.py checks it).
FROM python:3.11-slim AS wheel
WORKDIR /src
COPY . .
RUN pip wheel --no-cache-dir --no-deps --wheel-dir /wheels .

# The second installs that wheel with the export extra (parquet), at the versions the tests run on
# (constraints.txt), and no source tree: every import resolves to the installed packages.
FROM python:3.11-slim
WORKDIR /app
COPY constraints.txt /tmp/constraints.txt
COPY --from=wheel /wheels /wheels
RUN set -e; wheel="$(ls /wheels/toolground-*.whl)"; \
    pip install --no-cache-dir -c /tmp/constraints.txt "${wheel}[export]"; \
    rm -r /wheels /tmp/constraints.txt
ENV TOOLGROUND_CACHE=/data FASTMCP_SHOW_SERVER_BANNER=false FASTMCP_CHECK_FOR_UPDATES=off
# Build every domain's snapshot into the image (~190 MB, ~45 s of CPU) so containers start serving at
# once: `--domains all` would otherwise build them in every container, the four shards of the scaled
# compose profile and the reward service's replays included.
RUN python -c "from servers.registry import parse_domains; from servers.runtime import Environment; \
Environment(parse_domains('all')).snapshots()"
EXPOSE 8000 8100
CMD ["toolground", "serve", "--domains", "all", "--host", "0.0.0.0", "--port", "8000"]
