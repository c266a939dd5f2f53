package org.perftrack.server.web;

import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.ser.std.StdSerializer;

/**
 * A number that is not one (a mean of no samples, a ratio to zero) is {@code null} in the API's JSON, not the
 * string {@code "NaN"} that Jackson writes by default: a client reading {@code baseValue} gets a number or
 * nothing, never a string.
 */
@Configuration(proxyBeanMethods = false)
class JsonNumbers {

  @Bean
  JsonMapperBuilderCustomizer notANumberIsNull() {
    StdSerializer<Double> nullWhenNotFinite = new StdSerializer<>(Double.class) {
      @Override
      public void serialize(Double value, JsonGenerator gen, SerializationContext context) {
        if (Double.isFinite(value)) {
          gen.writeNumber(value);
        } else {
          gen.writeNull();
        }
      }
    };
    return builder -> builder.addModule(new SimpleModule("not-a-number-is-null")
        .addSerializer(Double.class, nullWhenNotFinite).addSerializer(Double.TYPE, nullWhenNotFinite));
  }
}
