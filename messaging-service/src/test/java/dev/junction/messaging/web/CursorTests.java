package dev.junction.messaging.web;

import java.time.Instant;
import java.util.Base64;
import java.util.UUID;

import dev.junction.messaging.common.Ids;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class CursorTests {

	@Test
	void roundTripsTimestampToTheMicrosecondAndId() {
		Cursor cursor = new Cursor(Instant.parse("2026-02-05T10:15:30.123456Z"), Ids.next());
		String encoded = cursor.encode();
		assertThat(encoded).matches("[A-Za-z0-9_-]+");
		assertThat(Cursor.decode(encoded)).isEqualTo(cursor);
	}

	@Test
	void roundTripsTimestampsBeforeTheEpoch() {
		Cursor cursor = new Cursor(Instant.parse("1969-12-31T23:59:59.000001Z"), UUID.randomUUID());
		assertThat(Cursor.decode(cursor.encode())).isEqualTo(cursor);
	}

	@Test
	void rejectsStringsItDidNotProduceNamingTheCursorParameter() {
		assertThatExceptionOfType(InvalidFieldException.class).isThrownBy(() -> Cursor.decode("not a cursor!"))
			.satisfies((ex) -> assertThat(ex.field()).isEqualTo("cursor"));
		String tooShort = Base64.getUrlEncoder().withoutPadding().encodeToString(new byte[10]);
		assertThatExceptionOfType(InvalidFieldException.class).isThrownBy(() -> Cursor.decode(tooShort));
	}

	@Test
	void pageRequestDefaultsTo50AndAcceptsOneToHundred() {
		assertThat(PageRequest.of(null, null).limit()).isEqualTo(50);
		assertThat(PageRequest.of(1, "").limit()).isEqualTo(1);
		assertThat(PageRequest.of(100, null).limit()).isEqualTo(100);
		assertThatExceptionOfType(InvalidFieldException.class).isThrownBy(() -> PageRequest.of(0, null));
		assertThatExceptionOfType(InvalidFieldException.class).isThrownBy(() -> PageRequest.of(101, null));
	}

}
