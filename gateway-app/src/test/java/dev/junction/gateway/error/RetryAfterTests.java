package dev.junction.gateway.error;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RetryAfterTests {

	@Test
	void parsesWholeSeconds() {
		assertThat(RetryAfter.parse("2")).isEqualTo(Duration.ofSeconds(2));
		assertThat(RetryAfter.parse("0")).isEqualTo(Duration.ZERO);
		assertThat(RetryAfter.parse("86400")).isEqualTo(Duration.ofDays(1));
	}

	@Test
	void parsesFractionsOfASecondToTheMillisecond() {
		assertThat(RetryAfter.parse("0.5")).isEqualTo(Duration.ofMillis(500));
		assertThat(RetryAfter.parse("1.25")).isEqualTo(Duration.ofMillis(1250));
	}

	@Test
	void isNullWhenAbsentOrBlank() {
		assertThat(RetryAfter.parse(null)).isNull();
		assertThat(RetryAfter.parse("")).isNull();
		assertThat(RetryAfter.parse("   ")).isNull();
	}

	@Test
	void isNullForAnHttpDateWhichIsNotSupported() {
		assertThat(RetryAfter.parse("Wed, 21 Oct 2015 07:28:00 GMT")).isNull();
	}

	@Test
	void isNullForAValueThatIsNotANumber() {
		assertThat(RetryAfter.parse("soon")).isNull();
		assertThat(RetryAfter.parse("2s")).isNull();
	}

	@Test
	void formatsWholeSecondsRoundedUp() {
		assertThat(RetryAfter.format(Duration.ofSeconds(2))).isEqualTo("2");
		assertThat(RetryAfter.format(Duration.ofMillis(2001))).isEqualTo("3");
		assertThat(RetryAfter.format(Duration.ofMillis(1500))).isEqualTo("2");
	}

	@Test
	void formatsAtLeastOneSecond() {
		assertThat(RetryAfter.format(Duration.ZERO)).isEqualTo("1");
		assertThat(RetryAfter.format(Duration.ofMillis(1))).isEqualTo("1");
		assertThat(RetryAfter.format(Duration.ofSeconds(-5))).isEqualTo("1");
	}

	@Test
	void formatsWhatItParsesBackToTheSameWholeSeconds() {
		assertThat(RetryAfter.format(RetryAfter.parse("7"))).isEqualTo("7");
		assertThat(RetryAfter.format(RetryAfter.parse("0.2"))).isEqualTo("1");
	}

}
