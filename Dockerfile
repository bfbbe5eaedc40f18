# The greedytl image of the Kubernetes recipe (docs/cluster/README.md): the
# binary alone, on a distroless base. Build it from a git checkout, at the
# repository's root:
#
#   docker build -t registry.example.com/greedytl:v1 .
#
# then push it and pin the manifest to its digest (README.md says how).
FROM golang:1.26 AS build
WORKDIR /src
COPY . .
# .dockerignore keeps .git in the context, so that go build stamps the
# commit into the binary (greedytl version, run.json's greedytl_version),
# and leaves out what git ignores. git clean then removes the files git
# does not track from the copy (files a checkout has beside its tracked
# ones, untracked, not ignored), which would mark the build "modified"; a
# change to a tracked file still does, as it should. Without a git
# repository in the context (a tarball, or a worktree, whose .git file
# points outside it) the build is identified by its executable's SHA-256.
RUN if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then git clean -fdq && vcs=auto; else vcs=false; fi && \
    CGO_ENABLED=0 go build -buildvcs=$vcs -o /greedytl ./cmd/greedytl && /greedytl version
FROM gcr.io/distroless/static-debian12
COPY --from=build /greedytl /usr/local/bin/greedytl
ENTRYPOINT ["greedytl"]
