package org.perftrack.server.db;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.core.convert.ConversionService;
import org.springframework.core.convert.converter.Converter;
import org.springframework.core.convert.converter.ConverterFactory;
import org.springframework.core.convert.support.DefaultConversionService;
import org.springframework.jdbc.core.DataClassRowMapper;
import org.springframework.jdbc.core.RowMapper;

/**
 * Row mappers for records whose enum components are stored in their wire spelling: {@code higher_is_better}
 * becomes {@code Direction.HIGHER_IS_BETTER}, {@code insufficient-data} {@code Verdict.INSUFFICIENT_DATA}
 * (upper case, hyphen read as underscore). Otherwise as {@code JdbcClient...query(Type.class)}: columns by name.
 */
public final class Rows {

  private static final ConversionService CONVERSIONS = conversions();
  private static final Map<Class<?>, RowMapper<?>> MAPPERS = new ConcurrentHashMap<>();

  private Rows() {}

  @SuppressWarnings("unchecked")
  public static <T> RowMapper<T> of(Class<T> type) {
    return (RowMapper<T>) MAPPERS.computeIfAbsent(type, t -> {
      DataClassRowMapper<T> mapper = new DataClassRowMapper<>(type);
      mapper.setConversionService(CONVERSIONS);
      return mapper;
    });
  }

  /** The wire spelling of an enum constant: its name in lower case. */
  public static <E extends Enum<E>> E wire(Class<E> type, String value) {
    return Enum.valueOf(type, value.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
  }

  @SuppressWarnings({"rawtypes", "unchecked"})
  private static ConversionService conversions() {
    DefaultConversionService conversions = new DefaultConversionService();
    conversions.addConverterFactory(new ConverterFactory<String, Enum>() {
      @Override
      public <T extends Enum> Converter<String, T> getConverter(Class<T> type) {
        return value -> value.isBlank() ? null : (T) wire((Class) type, value);
      }
    });
    return conversions;
  }
}
