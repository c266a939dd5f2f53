package org.perftrack.server.curation;

import java.util.List;
import java.util.UUID;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.wire.Quantities;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Curation over REST: {@code POST /api/v1/runs/{id}:exclude} and {@code :include} (triage),
 * {@code DELETE /api/v1/runs/{id}}, {@code DELETE /api/v1/products/{p}/versions/{v}}, of a product, a machine and
 * a branch ({@code DELETE /api/v1/branches/{branch}?product=}), the recently deleted list
 * and {@code POST /api/v1/deletions/{id}:restore} (admin).
 */
@RestController
class CurationApi {

  static final int MAX_REASON = 500;

  record ExcludeRequest(String reason) {}

  record RenameRequest(String name) {}

  record MergeRequest(String into) {}

  private final Curation curation;
  private final Machines machines;

  CurationApi(Curation curation, Machines machines) {
    this.curation = curation;
    this.machines = machines;
  }

  @PostMapping("/api/v1/machines/{machine}:rename")
  Curation.Change rename(@PathVariable String machine, @RequestBody(required = false) RenameRequest request,
      Authentication who) {
    return machines.rename(machine, request == null ? null : request.name(), who.getName());
  }

  @PostMapping("/api/v1/machines/{machine}:merge")
  Curation.Change merge(@PathVariable String machine, @RequestBody(required = false) MergeRequest request,
      Authentication who) {
    if (request == null || request.into() == null || request.into().isBlank()) {
      throw new InvalidInput("into", "name the machine to merge into");
    }
    return machines.merge(machine, request.into(), who.getName());
  }

  @PostMapping("/api/v1/runs/{id}:exclude")
  Curation.Change exclude(@PathVariable String id, @RequestBody(required = false) ExcludeRequest request,
      Authentication who) {
    return curation.exclude(uuid(id), who.getName(), reason(request == null ? null : request.reason()));
  }

  @PostMapping("/api/v1/runs/{id}:include")
  Curation.Change include(@PathVariable String id, Authentication who) {
    return curation.include(uuid(id), who.getName());
  }

  @DeleteMapping("/api/v1/runs/{id}")
  Curation.Change deleteRun(@PathVariable String id, Authentication who) {
    return curation.deleteRun(uuid(id), who.getName());
  }

  @DeleteMapping("/api/v1/products/{product}/versions/{version}")
  Curation.Change deleteVersion(@PathVariable String product, @PathVariable String version, Authentication who) {
    return curation.deleteVersion(product, version, who.getName());
  }

  @DeleteMapping("/api/v1/products/{product}")
  Curation.Change deleteProduct(@PathVariable String product, Authentication who) {
    return curation.deleteProduct(product, who.getName());
  }

  @DeleteMapping("/api/v1/machines/{machine}")
  Curation.Change deleteMachine(@PathVariable String machine, Authentication who) {
    return curation.deleteMachine(machine, who.getName());
  }

  /** A branch name may hold slashes ({@code feature/x}): it is the rest of the path. */
  @DeleteMapping("/api/v1/branches/{*branch}")
  Curation.Change deleteBranch(@PathVariable String branch, @RequestParam String product, Authentication who) {
    return curation.deleteBranch(product, branch.startsWith("/") ? branch.substring(1) : branch, who.getName());
  }

  // The same by query parameter, for a name a path cannot carry: one stored before uploads refused / \\ ; % and
  // '.' or '..' (the firewall refuses those in a path, a client resolves the dots away).

  @DeleteMapping(value = "/api/v1/products", params = "name")
  Curation.Change deleteProductNamed(@RequestParam String name, Authentication who) {
    return curation.deleteProduct(name, who.getName());
  }

  @DeleteMapping(value = "/api/v1/machines", params = "name")
  Curation.Change deleteMachineNamed(@RequestParam String name, Authentication who) {
    return curation.deleteMachine(name, who.getName());
  }

  @DeleteMapping("/api/v1/versions")
  Curation.Change deleteVersionNamed(@RequestParam String product, @RequestParam String version, Authentication who) {
    return curation.deleteVersion(product, version, who.getName());
  }

  @DeleteMapping(value = "/api/v1/branches", params = "name")
  Curation.Change deleteBranchNamed(@RequestParam String product, @RequestParam String name, Authentication who) {
    return curation.deleteBranch(product, name, who.getName());
  }

  @PostMapping(value = "/api/v1/machines:rename", params = "name")
  Curation.Change renameNamed(@RequestParam String name, @RequestBody(required = false) RenameRequest request,
      Authentication who) {
    return rename(name, request, who);
  }

  @PostMapping(value = "/api/v1/machines:merge", params = "name")
  Curation.Change mergeNamed(@RequestParam String name, @RequestBody(required = false) MergeRequest request,
      Authentication who) {
    return merge(name, request, who);
  }

  /** Admin only (no other scope names this call). */
  @DeleteMapping("/api/v1/lab/agents/{id}")
  Curation.Change deleteLabAgent(@PathVariable long id, Authentication who) {
    return curation.deleteLabAgent(id, who.getName());
  }

  @GetMapping("/api/v1/deletions")
  List<CurationStore.Deletion> deletions(@RequestParam(defaultValue = "200") int limit) {
    return curation.recentlyDeleted(limit(limit));
  }

  @PostMapping("/api/v1/deletions/{id}:restore")
  Curation.Change restore(@PathVariable long id, Authentication who) {
    return curation.restore(id, who.getName());
  }

  static final int MAX_LIMIT = 1000;

  static int limit(int limit) {
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new InvalidInput("limit", "must be between 1 and " + Quantities.count(MAX_LIMIT));
    }
    return limit;
  }

  static UUID uuid(String id) {
    try {
      return UUID.fromString(id);
    } catch (IllegalArgumentException e) {
      throw new InvalidInput("id", "must be a UUID (the id the agent printed for the run)");
    }
  }

  /** Why a run is excluded: required, one line of at most {@value #MAX_REASON} characters. */
  static String reason(String reason) {
    String r = reason == null ? "" : reason.strip();
    if (r.isEmpty()) {
      throw new InvalidInput("reason", "say why the run is excluded (e.g. machine disturbed, wrong build installed,"
          + " test upload)");
    }
    if (r.length() > MAX_REASON || r.chars().anyMatch(Character::isISOControl)) {
      throw new InvalidInput("reason", "must be one line of at most " + Quantities.count(MAX_REASON) + " characters");
    }
    return r;
  }
}
