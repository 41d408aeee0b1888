using System.Diagnostics;
using System.Text.Json;

namespace StoreSuppliers.Tests;

/// <summary>
/// Money with ISO 4217's decimals: the table is the service's, decimal text round-trips exactly (seeded random
/// amounts in JPY, USD and KWD), and two currencies are never summed or compared.
/// </summary>
public sealed class MoneyTests
{
    [Fact]
    public void The_table_is_the_services_code_for_code()
    {
        // The service's own table, read from its build (dist/server) by node.
        var script = "console.log(JSON.stringify(require('./dist/server/platform/currencies.js').currencyTable()))";
        var start = new ProcessStartInfo(Environment.GetEnvironmentVariable("NODE") ?? "node", ["-e", script])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            WorkingDirectory = ServiceFixture.Root,
        };
        using var p = Process.Start(start)!;
        var output = p.StandardOutput.ReadToEnd();
        var error = p.StandardError.ReadToEnd();
        p.WaitForExit();
        Assert.True(p.ExitCode == 0, $"node failed (run `npm run build:server` first): {error}");
        var server = JsonSerializer.Deserialize<JsonElement[][]>(output)!
            .ToDictionary(row => row[0].GetString()!, row => row[1].GetInt32());
        Assert.True(server.Count > 150);
        Assert.Equal(server.OrderBy(e => e.Key, StringComparer.Ordinal), Currencies.All.OrderBy(e => e.Key, StringComparer.Ordinal));
    }

    [Theory]
    [InlineData("JPY", 0)]
    [InlineData("USD", 2)]
    [InlineData("KWD", 3)]
    public void Minor_units_to_text_and_back_is_the_identity(string currency, int digits)
    {
        Assert.Equal(digits, Currencies.ExponentOf(currency));
        var random = new Random(41 + digits);
        var amounts = new List<long> { 0, 1, -1, 9, 10, 99, 100, 999, 1000, long.MaxValue, long.MinValue + 1, long.MinValue };
        for (var i = 0; i < 2000; i++)
        {
            // Every size, from one digit to the whole range of a long.
            var magnitude = (long)Math.Pow(10, random.Next(0, 19));
            amounts.Add(random.NextInt64(-magnitude, magnitude));
        }
        foreach (var units in amounts)
        {
            var text = Money.FormatMinor(units, currency);
            Assert.Equal(digits, text.Contains('.') ? text.Split('.')[1].Length : 0);
            if (units == long.MinValue)
            {
                // Its size is one past long.MaxValue: formatted, but read back only as far as a long goes.
                Assert.Throws<MoneyFormatException>(() => Money.ParseMinor(text, currency));
                continue;
            }
            Assert.Equal(units, Money.ParseMinor(text, currency));
            var money = new Money(units, currency);
            Assert.Equal(money, Money.Parse(money.ToDecimalString(), currency));
            Assert.Equal($"{currency} {text}", money.ToString());
        }
    }

    [Theory]
    [InlineData("JPY")]
    [InlineData("USD")]
    [InlineData("KWD")]
    public void One_more_decimal_rounds_half_up_as_the_service_reads_it(string currency)
    {
        var random = new Random(4217);
        for (var i = 0; i < 1000; i++)
        {
            var units = random.NextInt64(0, 1_000_000_000_000);
            var extra = random.Next(0, 10);
            var text = Money.FormatMinor(units, currency);
            var longer = text.Contains('.') ? $"{text}{extra}" : $"{text}.{extra}";
            var expected = units + (extra >= 5 ? 1 : 0);
            Assert.Equal(expected, Money.ParseMinor(longer, currency));
            Assert.Equal(-expected, Money.ParseMinor("-" + longer, currency));
        }
    }

    [Theory]
    [InlineData("JPY")]
    [InlineData("USD")]
    [InlineData("KWD")]
    public void Sums_and_comparisons_in_one_currency_are_those_of_the_integers(string currency)
    {
        var random = new Random(2026);
        for (var i = 0; i < 300; i++)
        {
            var amounts = Enumerable.Range(0, random.Next(0, 20)).Select(_ => random.NextInt64(-1_000_000_000_000, 1_000_000_000_000)).ToList();
            var money = amounts.Select(a => new Money(a, currency)).ToList();
            Assert.Equal(new Money(amounts.Sum(), currency), Money.Sum(money, currency));
            if (amounts.Count < 2) continue;
            Assert.Equal(amounts[0].CompareTo(amounts[1]), money[0].CompareTo(money[1]));
            Assert.Equal(amounts[0] < amounts[1], money[0] < money[1]);
            Assert.Equal(amounts[0] >= amounts[1], money[0] >= money[1]);
            Assert.Equal(amounts[0] - amounts[1], (money[0] - money[1]).AmountMinor);
        }
    }

    [Fact]
    public void Fixed_cases()
    {
        Assert.Equal("1.234", Money.FormatMinor(1234, "KWD"));
        Assert.Equal("1234", Money.FormatMinor(1234, "JPY"));
        Assert.Equal("12.34", Money.FormatMinor(1234, "USD"));
        Assert.Equal("0.005", Money.FormatMinor(5, "KWD"));
        Assert.Equal("-0.05", Money.FormatMinor(-5, "USD"));
        Assert.Equal("1.5000", Money.FormatMinor(15000, "CLF"));
        Assert.Equal("-92233720368547758.08", Money.FormatMinor(long.MinValue, "USD"));
        Assert.Equal("KWD 1.234", new Money(1234, "KWD").ToString());
        Assert.Equal(1234, Money.ParseMinor("1.234", "KWD"));
        Assert.Equal(1234, Money.ParseMinor("1234", "JPY"));
        Assert.Equal(1234, Money.ParseMinor("12.34", "USD"));
        Assert.Equal(1230, Money.ParseMinor(" 12.3 ", "USD"));
        Assert.Equal(30, Money.ParseMinor("0.295", "USD"));
        Assert.Equal(29, Money.ParseMinor("0.294", "USD"));
        Assert.Equal(501, Money.ParseMinor("500.5", "JPY"));
        Assert.Equal(101, Money.ParseMinor("1.005", "USD"));
        Assert.Equal(0, Money.ParseMinor("-0.001", "USD"));
        Assert.Equal(long.MaxValue, Money.ParseMinor("92233720368547758.07", "USD"));
        Assert.Equal(new Money(2000, "USD"), new Money(1999, "USD") + new Money(1, "USD"));
        Assert.Equal(new Money(0, "JPY"), Money.Sum([], "JPY"));
        Assert.True(new Money(500, "JPY") == Money.Parse("500", "JPY"));
        Assert.Equal(0, new Money(500, "JPY").CompareTo(new Money(500, "JPY")));
        // The API's money reads and writes as it did.
        var read = JsonSerializer.Deserialize<Money>("""{"amountMinor":1234,"currency":"KWD"}""")!;
        Assert.Equal("KWD 1.234", read.ToString());
        Assert.Equal("""{"amountMinor":1234,"currency":"KWD"}""", JsonSerializer.Serialize(read));
    }

    [Fact]
    public void Two_currencies_are_never_summed_or_compared()
    {
        var usd = new Money(100, "USD");
        var eur = new Money(100, "EUR");
        var mismatch = Assert.Throws<CurrencyMismatchException>(() => usd.CompareTo(eur));
        Assert.Equal(("USD", "EUR"), (mismatch.Left, mismatch.Right));
        Assert.IsAssignableFrom<StoreException>(mismatch);
        Assert.Throws<CurrencyMismatchException>(() => usd + eur);
        Assert.Throws<CurrencyMismatchException>(() => usd - eur);
        Assert.Throws<CurrencyMismatchException>(() => usd < eur);
        Assert.Throws<CurrencyMismatchException>(() => usd >= eur);
        Assert.Throws<CurrencyMismatchException>(() => Money.Sum([usd, eur], "USD"));
        Assert.Throws<CurrencyMismatchException>(() => Money.Sum([usd], "EUR"));
        Assert.Throws<CurrencyMismatchException>(() => new List<Money> { usd, eur }.Max());
        // Equal numbers in two currencies are not equal money.
        Assert.False(usd == eur);
        Assert.NotEqual(usd, eur);
    }

    [Fact]
    public void Unknown_codes_text_that_is_no_amount_and_overflow_are_refused()
    {
        Assert.False(Currencies.IsKnown("XYZ"));
        Assert.False(Currencies.IsKnown("usd"));
        Assert.False(Currencies.IsKnown(null));
        Assert.Throws<UnknownCurrencyException>(() => Currencies.ExponentOf("XYZ"));
        Assert.Throws<UnknownCurrencyException>(() => new Money(1, "usd"));
        Assert.Throws<UnknownCurrencyException>(() => Money.FormatMinor(1, "XYZ"));
        Assert.Throws<UnknownCurrencyException>(() => Money.ParseMinor("1.00", "XYZ"));
        Assert.Throws<UnknownCurrencyException>(() => new Money() + new Money());
        foreach (var bad in new[] { "", ".", "-", "1,234", "12.3.4", "1e3", "abc", "$12", "15.16 -- 15.17", "١٢", new string('1', 101) })
            Assert.Throws<MoneyFormatException>(() => Money.ParseMinor(bad, "USD"));
        Assert.Throws<MoneyFormatException>(() => Money.ParseMinor("92233720368547758.08", "USD"));
        Assert.Throws<OverflowException>(() => new Money(long.MaxValue, "USD") + new Money(1, "USD"));
    }
}
