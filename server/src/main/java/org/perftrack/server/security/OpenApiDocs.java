package org.perftrack.server.security;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The OpenAPI document names the token scheme and what each scope allows (the rules are {@link ApiAccess}). */
@Configuration(proxyBeanMethods = false)
class OpenApiDocs {

  static final String SCOPES = """
      API tokens carry scopes, chosen by the admin who makes one (page /admin): \
      `upload` — POST /api/v1/runs (JSON, ?format=…, :import); \
      `read` — every GET of the API and /v3/api-docs when public-read is off; \
      `triage` — PATCH regressions and summaries, PUT benchmark settings, POST actions on a regression; \
      `admin` — everything, including /api/v1/subscriptions (subscribers' addresses) and any write not listed. \
      The bootstrap token (PERFTRACK_BOOTSTRAP_TOKEN) has upload and read. A missing or unknown token is 401, \
      a token without the scope a request needs is 403.""";

  @Bean
  OpenAPI perftrackOpenApi() {
    return new OpenAPI()
        .info(new Info().title("perftrack API").version("v1").description(SCOPES))
        .components(new Components().addSecuritySchemes("token",
            new SecurityScheme().type(SecurityScheme.Type.HTTP).scheme("bearer").description(SCOPES)))
        .addSecurityItem(new SecurityRequirement().addList("token"));
  }
}
