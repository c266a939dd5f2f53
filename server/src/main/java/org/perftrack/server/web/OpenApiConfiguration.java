package org.perftrack.server.web;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The OpenAPI document behind /swagger-ui.html: a real title and description, the bearer scheme (so
 * Swagger UI offers "Authorize"), and operations tagged by the resource they act on (runs,
 * regressions, compare…) with a one-line summary, instead of by the controller class that serves them.
 *
 * <p>Size: {@code problemResponses} (about 140 lines) declares the shared problem schemas and responses as one
 * builder chain: a table, not logic.
 */
@Configuration(proxyBeanMethods = false)
class OpenApiConfiguration {

  static final String BEARER = "bearer";

  /** What each token scope allows; the rules themselves are security/ApiAccess. */
  static final String SCOPES = """
      API tokens carry scopes, chosen by the admin who makes one (page /admin): \
      `upload` — POST /api/v1/runs (JSON, ?format=…, :import) and a lab agent's calls; \
      `read` — every GET of the API and /v3/api-docs when public-read is off; \
      `triage` — PATCH regressions and summaries, PUT benchmark settings and the bugs of a regression or summary, POST actions on a regression, \
      lab jobs and schedules, notes on the charts (POST and DELETE /api/v1/annotations, :restore) and \
      POST /api/v1/summaries/{id}:infrastructure; \
      `admin` — everything, including /api/v1/subscriptions (subscribers' addresses), /api/v1/webhooks and any \
      write not listed. \
      The bootstrap token (PERFTRACK_BOOTSTRAP_TOKEN) has upload and read. A missing or unknown token is 401, \
      a token without the scope a request needs is 403.""";
  private static final String PREFIX = "/api/v1/";

  @Bean
  OpenAPI perftrackOpenApi() {
    return new OpenAPI()
        .info(new Info().title("perftrack API").version("v1")
            .description("Upload benchmark runs of a product (one version on one machine), and read back what "
                + "perftrack found: regressions between versions, their summaries across machines, two versions "
                + "compared, and the series of one metric. Writes need a bearer token (scope upload, triage or "
                + "admin); reads need one with scope read unless the server allows public reads. Errors are "
                + "RFC 9457 problem+json naming the field at fault. " + SCOPES))
        .components(new Components().addSecuritySchemes(BEARER, new SecurityScheme().type(SecurityScheme.Type.HTTP)
            .scheme("bearer").description("An API token (pt_…) made by an admin, or PERFTRACK_BOOTSTRAP_TOKEN. "
                + SCOPES)))
        .addSecurityItem(new SecurityRequirement().addList(BEARER))
        // relative: the server that serves the document (not the host name of the request that asked for it)
        .servers(List.of(new io.swagger.v3.oas.models.servers.Server().url("/")
            .description("the perftrack server that serves this document")));
  }

  /** The problem answers every operation may give, documented once as shared responses. */
  static final Map<String, String> PROBLEMS = new java.util.LinkedHashMap<>(Map.of(
      "400", "BadRequest", "401", "Unauthorized", "403", "Forbidden", "404", "NotFound", "409", "Conflict",
      "413", "PayloadTooLarge", "503", "Unavailable"));
  private static final Map<String, String> PROBLEM_TEXT = Map.of(
      "BadRequest", "Bad input: the problem names each field at fault (`fields`); nothing was stored.",
      "Unauthorized", "No API token, or one perftrack does not know.",
      "Forbidden", "The token lacks the scope this request needs.",
      "NotFound", "Nothing of that name or id.",
      "Conflict", "It conflicts with what is stored (e.g. a run id sent again with other content).",
      "PayloadTooLarge", "The body is larger than perftrack.limits.max-body-bytes (or the import limits).",
      "Unavailable", "The database cannot be reached, or too many bodies are being read: try again later "
          + "(Retry-After).");

  /**
   * Every operation lists the problem answers it may give (RFC 9457 problem+json), each a reference to one shared
   * response: 400, 401, 403 and 503 everywhere, 404 where the path names something, 409 and 413 where a body is
   * sent.
   */
  @Bean
  OpenApiCustomizer problemResponses() {
    return api -> {
      if (api.getPaths() == null) {
        return;
      }
      Components components = api.getComponents() == null ? new Components() : api.getComponents();
      api.setComponents(components);
      components.addSchemas("Problem", new io.swagger.v3.oas.models.media.ObjectSchema()
          .description("RFC 9457 problem details")
          .addProperty("type", new io.swagger.v3.oas.models.media.StringSchema().format("uri"))
          .addProperty("title", new io.swagger.v3.oas.models.media.StringSchema())
          .addProperty("status", new io.swagger.v3.oas.models.media.IntegerSchema())
          .addProperty("detail", new io.swagger.v3.oas.models.media.StringSchema())
          .addProperty("instance", new io.swagger.v3.oas.models.media.StringSchema())
          .addProperty("fields", new io.swagger.v3.oas.models.media.ArraySchema()
              .items(new io.swagger.v3.oas.models.media.ObjectSchema()
                  .addProperty("field", new io.swagger.v3.oas.models.media.StringSchema())
                  .addProperty("message", new io.swagger.v3.oas.models.media.StringSchema()))));
      PROBLEMS.values().forEach(name -> components.addResponses(name, new io.swagger.v3.oas.models.responses.ApiResponse()
          .description(PROBLEM_TEXT.get(name)).content(new io.swagger.v3.oas.models.media.Content().addMediaType(
              "application/problem+json", new io.swagger.v3.oas.models.media.MediaType()
                  .schema(new io.swagger.v3.oas.models.media.Schema<>().$ref("#/components/schemas/Problem"))))));
      api.getPaths().forEach((path, item) -> item.readOperationsMap().forEach((method, op) -> {
        boolean body = method == PathItem.HttpMethod.POST || method == PathItem.HttpMethod.PUT
            || method == PathItem.HttpMethod.PATCH;
        var responses = op.getResponses() == null ? new io.swagger.v3.oas.models.responses.ApiResponses()
            : op.getResponses();
        op.setResponses(responses);
        PROBLEMS.forEach((status, name) -> {
          boolean applies = switch (status) {
            case "404" -> path.contains("{");
            case "409", "413" -> body;
            default -> true;
          };
          if (applies) {
            responses.put(status, new io.swagger.v3.oas.models.responses.ApiResponse()
                .$ref("#/components/responses/" + name));
          }
        });
      }));
    };
  }

  /** How a session's runs are judged: the upload's body is read as bytes (it may be another tool's file). */
  static final String SESSIONS = "Runs measured interleaved in one session share `batch` (a UUID). Giving also "
      + "`batchSize`, the number of runs the session sends for this product and machine (1-1000), has the server "
      + "judge them together, in version order, once all are stored or none arrived for "
      + "perftrack.detection.batch-settle; until then the answer's `regressions` is empty and its `session` says "
      + "so, and the answer to the upload that completes the session lists the whole session's regressions. "
      + "Without `batchSize` a run is judged on arrival.";

  /** What the generated document cannot say by names and types. */
  @Bean
  OpenApiCustomizer sessionsDescribed() {
    return api -> {
      var runs = api.getPaths() == null ? null : api.getPaths().get(PREFIX + "runs");
      if (runs != null && runs.getPost() != null && runs.getPost().getDescription() == null) {
        runs.getPost().setDescription(SESSIONS);
      }
      var schemas = api.getComponents() == null ? null : api.getComponents().getSchemas();
      var answer = schemas == null ? null : schemas.get("UploadResponse");
      if (answer != null && answer.getProperties() != null && answer.getProperties().get("session") != null) {
        ((io.swagger.v3.oas.models.media.Schema<?>) answer.getProperties().get("session")).setDescription(
            "For a run that gave batchSize: where its session stands. Until `judged`, `regressions` is empty; the "
                + "answer to the upload that completes the session lists the whole session's.");
      }
      if (answer != null && answer.getProperties() != null && answer.getProperties().get("inconclusive") != null) {
        ((io.swagger.v3.oas.models.media.Schema<?>) answer.getProperties().get("inconclusive")).setDescription(
            "For a branch run only: its changes that the default branch would report once one more build shows "
                + "them. A branch build is judged once, so they are inconclusive and do not fail the check.");
      }
    };
  }

  /** A compare row's ratio is a number or null; the row says why it is null. */
  @Bean
  OpenApiCustomizer compareRatioDescribed() {
    return api -> {
      var schemas = api.getComponents() == null ? null : api.getComponents().getSchemas();
      var row = schemas == null ? null : schemas.get("ComparedMetric");
      if (row == null || row.getProperties() == null) {
        return;
      }
      var ratio = (io.swagger.v3.oas.models.media.Schema<?>) row.getProperties().get("ratio");
      var fromZero = (io.swagger.v3.oas.models.media.Schema<?>) row.getProperties().get("fromZero");
      if (ratio != null) {
        var types = new java.util.LinkedHashSet<String>(ratio.getTypes() == null ? List.of("number") : ratio.getTypes());
        types.add("null");
        ratio.setTypes(types);
        ratio.setDescription("headValue / baseValue; null when the base is 0 (fromZero is true: no ratio says how "
            + "much the head changed, the verdict still says which way), empty in the CSV.");
      }
      if (fromZero != null) {
        fromZero.setDescription("The base is 0 (baseValue 0), so ratio is null; the pages say \"from 0\".");
      }
    };
  }

  @Bean
  OpenApiCustomizer tagsAndSummariesByResource() {
    return api -> {
      if (api.getPaths() == null) {
        return;
      }
      api.setTags(null);
      api.getPaths().forEach((path, item) -> item.readOperationsMap().forEach((method, op) -> {
        String resource = resource(path);
        op.setTags(List.of(resource));
        if (op.getSummary() == null) {
          op.setSummary(summary(method, path, resource));
        }
      }));
    };
  }

  /** {@code /api/v1/regressions/{id}} → regressions; {@code /api/v1/runs:import} → runs. */
  static String resource(String path) {
    String rest = path.startsWith(PREFIX) ? path.substring(PREFIX.length()) : path.replaceFirst("^/", "");
    return rest.split("[/:]", 2)[0];
  }

  private static final Map<String, String> KNOWN = Map.of(
      "POST /api/v1/runs", "Upload one run (one version measured on one machine)",
      "POST /api/v1/runs:import", "Import many runs at once (NDJSON, gzip accepted)",
      "GET /api/v1/compare", "Compare two versions (or two products) on one machine",
      "GET /api/v1/series", "The values of one metric over every version on one machine",
      "POST /api/v1/webhooks", "Add a webhook (its secret is in this answer only, never in a GET)",
      "POST /api/v1/webhooks/{id}/test", "Send a test delivery to one webhook",
      "POST /api/v1/annotations", "Add a note to the charts (at a time or a version; all products, a product, a machine)",
      "POST /api/v1/annotations/{id}:restore", "Undo the deletion of a note",
      "POST /api/v1/summaries/{id}:infrastructure", "Triage a summary as caused by the infrastructure (a note's event)");

  static String summary(PathItem.HttpMethod method, String path, String resource) {
    String known = KNOWN.get(method + " " + path);
    if (known != null) {
      return known;
    }
    boolean one = path.endsWith("}");
    String noun = resource.replace('-', ' ');
    String verb = switch (method) {
      case GET -> one ? "Get one of the " : "List the ";
      case POST -> "Create ";
      case PUT -> "Set ";
      case PATCH -> "Change one of the ";
      case DELETE -> "Delete one of the ";
      default -> method.name().toLowerCase(Locale.ROOT) + " ";
    };
    return verb + noun;
  }
}
