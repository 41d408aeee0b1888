using System.Collections.Generic;

namespace StoreSuppliers;

/// <summary>
/// ISO 4217's minor units: how many decimals each currency's amounts have (JPY 0, USD 2, KWD 3, CLF 4). The table is
/// the service's own (server/platform/currencies.ts), generated into Generated/Currencies.g.cs.
/// </summary>
public static partial class Currencies
{
    /// <summary>Every ISO 4217 code the service knows, with its decimals.</summary>
    public static IReadOnlyDictionary<string, int> All => Table;

    /// <summary>True for a code ISO 4217 lists (upper case, as the API writes it).</summary>
    public static bool IsKnown(string? currency) => currency is not null && Table.ContainsKey(currency);

    /// <summary>Decimals of the currency's amounts: 0 for JPY, 2 for USD, 3 for KWD.</summary>
    /// <exception cref="UnknownCurrencyException">The code is not an ISO 4217 currency; no number of decimals is guessed.</exception>
    public static int ExponentOf(string? currency)
    {
        if (currency is null || !Table.TryGetValue(currency, out var digits)) throw new UnknownCurrencyException(currency);
        return digits;
    }
}

/// <summary>A code ISO 4217 does not list: its decimals are unknown, so none are guessed.</summary>
public sealed class UnknownCurrencyException : StoreException
{
    /// <summary>The code that is not a currency.</summary>
    public UnknownCurrencyException(string? currency)
        : base($"{Shorten(currency)} is not an ISO 4217 currency") => Currency = currency;

    /// <summary>The code as given.</summary>
    public string? Currency { get; }

    private static string Shorten(string? s) => s is null ? "(null)" : s.Length > 8 ? s.Substring(0, 8) : s;
}

/// <summary>Text that is not a decimal amount, or an amount too large for a <see cref="long"/> of minor units.</summary>
public sealed class MoneyFormatException : StoreException
{
    /// <summary>What is wrong with it.</summary>
    public MoneyFormatException(string message) : base(message) { }
}

/// <summary>Amounts in two currencies were summed or compared: convert one first (with its rate), never add the numbers.</summary>
public sealed class CurrencyMismatchException : StoreException
{
    /// <summary>The two currencies met.</summary>
    public CurrencyMismatchException(string? left, string? right)
        : base($"amounts in {left} and {right} cannot be summed or compared")
    {
        Left = left;
        Right = right;
    }

    /// <summary>The first amount's currency.</summary>
    public string? Left { get; }

    /// <summary>The second amount's currency.</summary>
    public string? Right { get; }
}
