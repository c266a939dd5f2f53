package org.perftrack.server.db;

import com.zaxxer.hikari.HikariDataSource;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.datasource.lookup.AbstractRoutingDataSource;

/**
 * With {@code perftrack.datasource.replica-url}: one DataSource that hands out connections of the primary
 * ({@code spring.datasource.*}) or, for the requests {@link ReplicaReads} marks, of the replica while
 * {@link ReplicaLag} finds it usable. Both pools take {@code spring.datasource.hikari.*}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty("perftrack.datasource.replica-url")
class ReplicaConfiguration {

  @Bean(destroyMethod = "close")
  Pools replicaPools(Environment env, ReplicaProperties props) {
    String url = env.getProperty("spring.datasource.url");
    if (url == null || url.isBlank()) {
      throw new IllegalStateException("perftrack.datasource.replica-url needs spring.datasource.url: the primary "
          + "that the replica streams from (the embedded database has no replica)");
    }
    String user = env.getProperty("spring.datasource.username");
    String password = env.getProperty("spring.datasource.password");
    HikariDataSource primary = pool(env, "perftrack-primary", url, user, password);
    HikariDataSource replica = pool(env, "perftrack-replica", props.replicaUrl(),
        props.replicaUsername() == null ? user : props.replicaUsername(),
        props.replicaPassword() == null ? password : props.replicaPassword());
    replica.setReadOnly(true);
    return new Pools(primary, replica, new ReplicaLag(primary, replica, props), props);
  }

  @Bean
  DataSource dataSource(Pools pools) {
    return pools.routing();
  }

  @Bean
  ReplicaLag replicaLag(Pools pools) {
    return pools.lag();
  }

  /** After Spring Security's filters (order -100): authentication reads and writes the primary. */
  @Bean
  FilterRegistrationBean<ReplicaReads> replicaReads() {
    FilterRegistrationBean<ReplicaReads> bean = new FilterRegistrationBean<>(new ReplicaReads());
    bean.setOrder(0);
    return bean;
  }

  private static HikariDataSource pool(Environment env, String name, String url, String user, String password) {
    HikariDataSource ds = new HikariDataSource();
    Binder.get(env).bind("spring.datasource.hikari", Bindable.ofInstance(ds));
    ds.setPoolName(name);
    ds.setJdbcUrl(url);
    ds.setUsername(user);
    ds.setPassword(password);
    return ds;
  }

  /** The two pools, the routing between them and the lag measurement, closed together. */
  static final class Pools implements AutoCloseable {
    private final HikariDataSource primary;
    private final HikariDataSource replica;
    private final ReplicaLag lag;
    private final AbstractRoutingDataSource routing;
    private final ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "replica-lag");
      t.setDaemon(true);
      return t;
    });

    Pools(HikariDataSource primary, HikariDataSource replica, ReplicaLag lag, ReplicaProperties props) {
      this.primary = primary;
      this.replica = replica;
      this.lag = lag;
      this.routing = new AbstractRoutingDataSource() {
        @Override
        protected Object determineCurrentLookupKey() {
          return ReplicaReads.marked() && lag.usable() ? "replica" : "primary";
        }
      };
      routing.setTargetDataSources(Map.of("primary", primary, "replica", replica));
      routing.setDefaultTargetDataSource(primary);
      routing.afterPropertiesSet();
      lag.measure();
      long every = props.lagCheck().toMillis();
      clock.scheduleWithFixedDelay(lag::measure, every, every, TimeUnit.MILLISECONDS);
    }

    DataSource routing() {
      return routing;
    }

    ReplicaLag lag() {
      return lag;
    }

    @Override
    public void close() {
      clock.shutdownNow();
      replica.close();
      primary.close();
    }
  }
}
