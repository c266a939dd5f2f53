/**
 * A product: its page {@code /products/{product}} ({@code ProductPages}, benchmarks as sparklines) and discovery
 * for scripts ({@code DiscoveryApi}: products, their machines, versions and benchmarks); its change-link templates
 * are set through {@code ChangeLinksApi} and kept by {@code changes}.
 */
package org.perftrack.server.products;
