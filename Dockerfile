# syntax=docker/dockerfile:1
# The perftrack server: built from this repository, run on a JRE. Used by docker-compose.yml.
# It always talks to an external PostgreSQL (SPRING_DATASOURCE_URL), so the jar is built without the
# embedded-PostgreSQL binaries (-Dno-embedded-db).

FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY . .
# The cache mount keeps ~/.m2 between builds, so a source change does not download Maven Central again.
RUN --mount=type=cache,target=/root/.m2 \
    mvn -B -q -pl server -am package -DskipTests -Dno-embedded-db

FROM eclipse-temurin:17-jre
# curl for the health check
RUN apt-get update \
    && apt-get install -y --no-install-recommends curl \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home-dir /app perftrack
WORKDIR /app
COPY --from=build /src/server/target/perftrack-server.jar /app/perftrack-server.jar
USER perftrack
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=5 \
    CMD curl -fsS http://localhost:8080/actuator/health || exit 1
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75", "-jar", "/app/perftrack-server.jar"]
