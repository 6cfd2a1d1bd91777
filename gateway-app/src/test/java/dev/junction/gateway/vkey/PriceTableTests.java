package dev.junction.gateway.vkey;

import java.util.Map;

import dev.junction.gateway.cost.Price;
import dev.junction.gateway.cost.PriceTable;
import dev.junction.gateway.provider.Usage;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

class PriceTableTests {

	private final PriceTable table = PriceTable.bundledWith(
			Map.of("emu/special", new Price(1, 2, null, null), "gpt-4o", new Price(3, 4, null, null)),
			JsonMapper.builder().build());

	@Test
	void pricesAnOpenAiCompatibleProvidersModelByItsName() {
		assertThat(this.table.find("emu/gpt-4o-mini")).isEqualTo(this.table.find("gpt-4o-mini"));
		assertThat(this.table.find("gpt-4o-mini").input()).isEqualTo(0.15);
		assertThat(this.table.find("gpt-4o-mini").output()).isEqualTo(0.60);
	}

	@Test
	void pricesDatedModelNamesAsTheLongestListedNameTheyBeginWith() {
		assertThat(this.table.find("openai/gpt-4o-mini-2024-07-18")).isEqualTo(this.table.find("gpt-4o-mini"));
		assertThat(this.table.find("anthropic/claude-sonnet-4-20250514")).isEqualTo(this.table.find("claude-sonnet-4"));
		assertThat(this.table.find("claude-sonnet-4-5-20250929").input()).isEqualTo(3.0);
		assertThat(this.table.find("unknown-model")).isNull();
	}

	@Test
	void theConfigurationOverridesAndExtendsTheBundledTable() {
		assertThat(this.table.find("gpt-4o").input()).isEqualTo(3.0);
		assertThat(this.table.find("emu/special").output()).isEqualTo(2.0);
		assertThat(this.table.find("other/special")).isNull();
	}

	@Test
	void chargesCachedAndReasoningTokensAtTheirOwnPrices() {
		Price price = new Price(2.0, 8.0, 0.5, 10.0);
		// 1000 read (400 cached), 500 generated (100 reasoning): 600*2 + 400*0.5 + 400*8
		// + 100*10 per million.
		assertThat(price.nanos(new Usage(1000, 500, 400, 100))).isEqualTo((1200 + 200 + 3200 + 1000) * 1000L);
		assertThat(new Price(2.0, 8.0, null, null).nanos(new Usage(1000, 500))).isEqualTo((2000 + 4000) * 1000L);
	}

}
