/**
 * A product: its page {@code /products/{product}} ({@code ProductPages}, benchmarks as sparklines) and discovery
 * for scripts ({@code DiscoveryApi}: products, their machines, versions and benchmarks).
 */
package org.perftrack.server.products;
