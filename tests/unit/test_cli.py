"""The `maumau` command line, through click's runner."""

from click.testing import CliRunner

from service.cli import main


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_simulate_prints_a_summary_to_stdout():
    result = run("simulate", "--ruleset", "club", "--players", "4", "--matches", "5", "--seed", "7")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "club, 4 players, heuristic bots (forgetfulness 0.1, vigilance 0.5), seed 7"
    labels = [line.split("  ")[0] for line in lines[1:]]
    assert labels == [
        "matches",
        "rounds",
        "turns (decisions by seats)",
        "average match length",
        "win share by seat",
        "rounds ended by exhaustion",
        "calls missed",
        "missed calls challenged",
        "rounds won by unchallenged Mau Mau",
    ]
    assert lines[1].split()[-1] == "5"
    assert "simulating" not in result.stdout  # the progress bar goes to stderr


def test_the_same_seed_prints_the_same_output():
    args = ("simulate", "--matches", "5", "--seed", "9", "--bot", "random", "--forgetfulness", "0.3")
    first, second = run(*args), run(*args)
    assert first.exit_code == second.exit_code == 0
    assert first.stdout == second.stdout


def test_a_different_seed_prints_a_different_summary():
    assert (
        run("simulate", "--matches", "5", "--seed", "1").stdout
        != run("simulate", "--matches", "5", "--seed", "2").stdout
    )


def test_an_unknown_ruleset_is_refused_with_exit_code_2():
    result = run("simulate", "--ruleset", "skat", "--matches", "1")
    assert result.exit_code == 2
    known = "101, classic, club, faraon, haft-khabis, mau-mau-150, neuner, pesten, prsi, puke, russian"
    assert f"no ruleset 'skat'; known: {known}" in result.output
    assert "--ruleset" in result.output


def test_a_player_count_outside_the_ruleset_is_refused_with_exit_code_2():
    result = run("simulate", "--ruleset", "club", "--players", "7", "--matches", "1")
    assert result.exit_code == 2
    assert "club is for 2 to 6 players" in result.output
    assert "--players" in result.output


def test_an_unknown_bot_is_refused_with_exit_code_2():
    result = run("simulate", "--bot", "genius", "--matches", "1")
    assert result.exit_code == 2
    assert "--bot" in result.output


def test_rates_outside_zero_to_one_are_refused():
    assert run("simulate", "--forgetfulness", "1.5").exit_code == 2
    assert run("simulate", "--vigilance", "-0.1").exit_code == 2


def test_simulate_plays_a_preset_with_a_modifier():
    result = run("simulate", "--ruleset", "prsi", "--modifier", "quick", "--matches", "3", "--bot", "random")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0].startswith("prsi + quick, 4 players, random bots")


def test_simulate_refuses_a_modifier_it_does_not_know():
    result = run("simulate", "--modifier", "sideways", "--matches", "1")
    assert result.exit_code == 2 and "sideways" in result.output


def test_simulate_against_names_both_bots_and_seat_0s_share_beside_the_fair_share():
    result = run("simulate", "--ruleset", "prsi", "--matches", "20", "--seed", "3", "--against", "random")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == (
        "prsi, 4 players, a heuristic bot in seat 0 against random bots "
        "(forgetfulness 0.1, vigilance 0.5), seed 3"
    )
    assert lines[-1].startswith("seat 0's win share")
    assert lines[-1].endswith("(fair share 25.0%)")


def test_an_unknown_bot_to_play_against_is_refused_with_exit_code_2():
    result = run("simulate", "--against", "genius", "--matches", "1")
    assert result.exit_code == 2
    assert "--against" in result.output
