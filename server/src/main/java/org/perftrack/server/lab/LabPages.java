package org.perftrack.server.lab;

import java.security.Principal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.springframework.security.core.Authentication;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/** The lab page: agents and their health, jobs, bisections and schedules; "run now" and "Bisect" for signed-in users. */
@Controller
class LabPages {

  /** One agent's row: online or not, and the job it runs now. */
  record AgentRow(Agents.Agent agent, boolean online, Jobs.Job running) {}

  record Page(List<AgentRow> agents, long agentCount, List<Jobs.Job> jobs, List<Bisections.Bisection> bisections,
      List<Confirmations.Confirmation> confirmations, List<Schedules.Schedule> schedules, Instant now, int page,
      Integer previousPage, Integer nextPage) {}

  private final Agents agents;
  private final Jobs jobs;
  private final Bisections bisections;
  private final Schedules schedules;
  private final Confirmations confirmations;
  private final LabQueue queue;
  private final LabProperties props;
  private final Lab lab;

  LabPages(Agents agents, Jobs jobs, Bisections bisections, Schedules schedules, Confirmations confirmations,
      LabQueue queue, LabProperties props, Lab lab) {
    this.confirmations = confirmations;
    this.props = props;
    this.lab = lab;
    this.agents = agents;
    this.jobs = jobs;
    this.bisections = bisections;
    this.schedules = schedules;
    this.queue = queue;
  }

  /** A page of {@code perftrack.lab.page-size} agents and jobs; bisections and schedules on the first. */
  @GetMapping("/lab")
  String lab(@RequestParam(defaultValue = "0") int page, Authentication who, Model model) {
    int p = Math.max(0, page);
    int size = props.pageSize();
    boolean open = LabView.seesEverything(who);
    Instant now = Instant.now();
    List<Jobs.Job> recent = LabView.jobs(jobs.page(p, size), open);
    Map<Long, Jobs.Job> running = recent.stream().filter(j -> j.status() == JobStatus.RUNNING && j.agentId() != null)
        .collect(Collectors.toMap(Jobs.Job::agentId, Function.identity(), (a, b) -> a));
    List<AgentRow> rows = LabView.agents(agents.page(p, size), open).stream()
        .map(a -> new AgentRow(a, a.online(now), running.containsKey(a.id()) ? running.get(a.id())
            : LabView.job(jobs.runningOn(a.id()).orElse(null), open)))
        .toList();
    long count = agents.count();
    Integer next = LabView.nextPage(p, size, agents, jobs);
    model.addAttribute("section", "lab");
    model.addAttribute("page", new Page(rows, count, recent,
        p == 0 ? LabView.bisections(bisections.recent(20), open) : List.of(),
        p == 0 ? confirmations.recent(20) : List.of(),
        p == 0 ? LabView.schedules(schedules.all(), open) : List.of(), now, p, p > 0 ? p - 1 : null, next));
    return "lab/lab";
  }

  @PostMapping("/lab/run-now")
  String runNow(@RequestParam String product, @RequestParam String machine, Principal who, RedirectAttributes flash) {
    Jobs.Job job = queue.runNow(product, machine, null, null, who.getName());
    flash.addFlashAttribute("message", "Job " + job.id() + " queued for " + machine + ".");
    return "redirect:/lab";
  }

  @PostMapping("/lab/schedules")
  String schedule(@RequestParam String product, @RequestParam(defaultValue = "") String machine,
      @RequestParam String cron, Principal who, RedirectAttributes flash) {
    Schedules.Schedule s = schedules.create(product, machine, cron, who.getName());
    flash.addFlashAttribute("message", "Schedule " + s.id() + " added; first run " + s.nextRunAt() + ".");
    return "redirect:/lab#schedules";
  }

  @PostMapping("/lab/schedules/{id}/delete")
  String unschedule(@PathVariable long id, RedirectAttributes flash) {
    flash.addFlashAttribute("message", schedules.delete(id) ? "Schedule " + id + " removed." : "No schedule " + id + ".");
    return "redirect:/lab#schedules";
  }

  @PostMapping("/regressions/{id}/bisect")
  String bisect(@PathVariable long id, Principal who, RedirectAttributes flash) {
    flash.addFlashAttribute("bisectionMessage", queue.bisect(id, who.getName()).sentence());
    return "redirect:/regressions/" + id + "#bisection";
  }
}
