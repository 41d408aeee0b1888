using System;
using System.Collections.Generic;
using System.Globalization;

namespace StoreSuppliers;

/// <summary>
/// The API's money (<c>{ amountMinor, currency }</c>, generated in Models.g.cs) with ISO 4217's decimals: decimal text
/// both ways without floating point, and sums and comparisons only within one currency
/// (<see cref="CurrencyMismatchException"/> otherwise). Operators return new values and never change their operands.
/// </summary>
public sealed partial class Money : IEquatable<Money>, IComparable<Money>
{
    /// <summary>An empty amount, for the JSON reader.</summary>
    public Money() { }

    /// <summary>An amount in minor units of an ISO 4217 currency: <c>new Money(1234, "USD")</c> is 12.34 USD.</summary>
    /// <exception cref="UnknownCurrencyException">The code is not an ISO 4217 currency.</exception>
    public Money(long amountMinor, string currency)
    {
        Currencies.ExponentOf(currency);
        AmountMinor = amountMinor;
        Currency = currency;
    }

    /// <summary>
    /// Minor units of a decimal amount: "12.34" USD is 1234, "1234" JPY is 1234, "1.234" KWD is 1234. More decimals than
    /// the currency has round half up, as the service reads supplier amounts ("0.295" USD is 30, "500.5" JPY is 501); a
    /// negative amount rounds its size the same way.
    /// </summary>
    /// <exception cref="UnknownCurrencyException">The code is not an ISO 4217 currency.</exception>
    /// <exception cref="MoneyFormatException">Not a plain decimal (no exponent, grouping or symbol), or too large.</exception>
    public static long ParseMinor(string text, string currency)
    {
        var digits = Currencies.ExponentOf(currency);
        var t = text?.Trim() ?? "";
        if (t.Length > 100) throw new MoneyFormatException("not a decimal amount");
        var i = 0;
        var negative = false;
        if (t.Length > 0 && (t[0] == '-' || t[0] == '+'))
        {
            negative = t[0] == '-';
            i = 1;
        }
        var dot = t.IndexOf('.', i);
        var whole = dot < 0 ? t.Substring(i) : t.Substring(i, dot - i);
        var fraction = dot < 0 ? "" : t.Substring(dot + 1);
        if ((whole.Length == 0 && fraction.Length == 0) || !AllDigits(whole) || !AllDigits(fraction))
            throw new MoneyFormatException($"not a decimal amount: {(t.Length > 40 ? t.Substring(0, 40) : t)}");
        try
        {
            checked
            {
                long units = 0;
                foreach (var c in whole) units = units * 10 + (c - '0');
                for (var k = 0; k < digits; k++) units = units * 10 + (k < fraction.Length ? fraction[k] - '0' : 0);
                if (fraction.Length > digits && fraction[digits] >= '5') units++;
                return negative ? -units : units;
            }
        }
        catch (OverflowException)
        {
            throw new MoneyFormatException("amount too large for a long of minor units");
        }
    }

    /// <summary><see cref="ParseMinor"/> as money: <c>Money.Parse("12.34", "USD")</c> is 1234 minor units of USD.</summary>
    public static Money Parse(string text, string currency) => new(ParseMinor(text, currency), currency);

    /// <summary>Minor units as decimal text with exactly the currency's decimals: 1234 USD is "12.34", 1234 JPY "1234", 1234 KWD "1.234".</summary>
    /// <exception cref="UnknownCurrencyException">The code is not an ISO 4217 currency.</exception>
    public static string FormatMinor(long amountMinor, string currency)
    {
        var digits = Currencies.ExponentOf(currency);
        // As text, so long.MinValue has a size too.
        var s = amountMinor.ToString(CultureInfo.InvariantCulture);
        var sign = s[0] == '-' ? "-" : "";
        s = s.TrimStart('-').PadLeft(digits + 1, '0');
        return digits == 0 ? sign + s : $"{sign}{s.Substring(0, s.Length - digits)}.{s.Substring(s.Length - digits)}";
    }

    /// <summary>The amount as decimal text in its currency's decimals: "12.34", "1234", "1.234".</summary>
    public string ToDecimalString() => FormatMinor(AmountMinor, Currency);

    /// <summary>The amount with its code, the same in every culture: "USD 12.34", "JPY 1234", "KWD 1.234".</summary>
    public override string ToString() => $"{Currency} {ToDecimalString()}";

    /// <summary>The sum of amounts all in <paramref name="currency"/> (zero of it when there are none).</summary>
    /// <exception cref="CurrencyMismatchException">An amount is in another currency.</exception>
    public static Money Sum(IEnumerable<Money> amounts, string currency)
    {
        var total = new Money(0, currency);
        foreach (var m in amounts) total += m;
        return total;
    }

    /// <summary>a + b, both in one currency.</summary>
    /// <exception cref="CurrencyMismatchException">They are in two currencies.</exception>
    /// <exception cref="OverflowException">The sum does not fit a long.</exception>
    public static Money operator +(Money a, Money b) => new(checked(a.AmountMinor + b.AmountMinor), SameCurrency(a, b));

    /// <summary>a − b, both in one currency.</summary>
    /// <exception cref="CurrencyMismatchException">They are in two currencies.</exception>
    public static Money operator -(Money a, Money b) => new(checked(a.AmountMinor - b.AmountMinor), SameCurrency(a, b));

    /// <summary>Orders amounts of one currency by size.</summary>
    /// <exception cref="CurrencyMismatchException">They are in two currencies: such amounts have no order without a rate.</exception>
    public int CompareTo(Money? other)
    {
        if (other is null) return 1;
        SameCurrency(this, other);
        return AmountMinor.CompareTo(other.AmountMinor);
    }

    /// <summary>a is less than b, both in one currency (<see cref="CurrencyMismatchException"/> otherwise).</summary>
    public static bool operator <(Money a, Money b) => Compare(a, b) < 0;

    /// <summary>a is more than b, both in one currency (<see cref="CurrencyMismatchException"/> otherwise).</summary>
    public static bool operator >(Money a, Money b) => Compare(a, b) > 0;

    /// <summary>a is at most b, both in one currency (<see cref="CurrencyMismatchException"/> otherwise).</summary>
    public static bool operator <=(Money a, Money b) => Compare(a, b) <= 0;

    /// <summary>a is at least b, both in one currency (<see cref="CurrencyMismatchException"/> otherwise).</summary>
    public static bool operator >=(Money a, Money b) => Compare(a, b) >= 0;

    /// <summary>The same amount in the same currency; amounts in two currencies are never equal (and never compared).</summary>
    public bool Equals(Money? other) => other is not null && AmountMinor == other.AmountMinor && string.Equals(Currency, other.Currency, StringComparison.Ordinal);

    /// <inheritdoc/>
    public override bool Equals(object? obj) => obj is Money m && Equals(m);

    /// <inheritdoc/>
    public override int GetHashCode() => unchecked(AmountMinor.GetHashCode() * 31 + (Currency is null ? 0 : StringComparer.Ordinal.GetHashCode(Currency)));

    /// <summary>Same amount, same currency.</summary>
    public static bool operator ==(Money? a, Money? b) => a is null ? b is null : a.Equals(b);

    /// <summary>Not the same amount in the same currency.</summary>
    public static bool operator !=(Money? a, Money? b) => !(a == b);

    private static int Compare(Money a, Money b)
    {
        if (a is null || b is null) throw new ArgumentNullException(a is null ? nameof(a) : nameof(b));
        return a.CompareTo(b);
    }

    private static string SameCurrency(Money a, Money b)
    {
        if (a is null || b is null) throw new ArgumentNullException(a is null ? nameof(a) : nameof(b));
        Currencies.ExponentOf(a.Currency);
        if (!string.Equals(a.Currency, b.Currency, StringComparison.Ordinal)) throw new CurrencyMismatchException(a.Currency, b.Currency);
        return a.Currency;
    }

    private static bool AllDigits(string s)
    {
        foreach (var c in s) if (c < '0' || c > '9') return false;
        return true;
    }
}
