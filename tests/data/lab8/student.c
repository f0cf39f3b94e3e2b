/* A Lab 8 Part 1 program as students write them, for the referee's tests:
 * it prompts for the board dimension and the computer's colour, prints the
 * board, and plays the computer's side (the first legal move in row-major
 * order) against moves read from stdin. Like most submissions it never
 * calls fflush, so through a pipe its output would arrive only when it
 * exits. Its first argument chooses a way to misbehave:
 *   (none)      play correctly;
 *   crash N     crash at its N-th move;
 *   hang N      loop forever at its N-th move;
 *   deaf N      stop reading input after its N-th move (and wait forever);
 *   illegal     play an occupied square;
 *   colour      say it places the other colour's disc;
 *   garbage     print a move that is no square;
 *   layout      print the board in another layout, with extra blank lines;
 *   flood N     at its N-th move, print without end;
 *   verdict     declare the wrong winner;
 *   invalid N   call the opponent's N-th move invalid and stop;
 *   falsepass N say it has no move at its N-th move, and wait for input;
 *   slow N      sleep 1.5 s (wall time, no CPU) at each of its first N moves;
 *   spin N      use 1.5 s of CPU time at its N-th move.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char board[26][26];
static int n;

static int flips(int r, int c, char me, int dr, int dc) {
    char you = me == 'B' ? 'W' : 'B';
    int k = 0, rr = r + dr, cc = c + dc;
    while (rr >= 0 && rr < n && cc >= 0 && cc < n && board[rr][cc] == you) {
        rr += dr; cc += dc; k++;
    }
    if (k == 0 || rr < 0 || rr >= n || cc < 0 || cc >= n || board[rr][cc] != me) return 0;
    return k;
}

static int legal(int r, int c, char me) {
    if (r < 0 || r >= n || c < 0 || c >= n || board[r][c] != 'U') return 0;
    for (int dr = -1; dr <= 1; dr++)
        for (int dc = -1; dc <= 1; dc++)
            if ((dr || dc) && flips(r, c, me, dr, dc)) return 1;
    return 0;
}

static void place(int r, int c, char me) {
    for (int dr = -1; dr <= 1; dr++)
        for (int dc = -1; dc <= 1; dc++) {
            if (!dr && !dc) continue;
            int k = flips(r, c, me, dr, dc);
            for (int i = 1; i <= k; i++) board[r + i * dr][c + i * dc] = me;
        }
    board[r][c] = me;
}

static int has_move(char me) {
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++)
            if (legal(r, c, me)) return 1;
    return 0;
}

static void print_board(int other_layout) {
    if (other_layout) {
        printf("\n\n");
        for (int r = 0; r < n; r++) {
            for (int c = 0; c < n; c++) printf(" %c", board[r][c] == 'U' ? '.' : board[r][c]);
            printf("\n");
        }
        printf("\n");
        return;
    }
    printf("  ");
    for (int c = 0; c < n; c++) printf("%c", 'a' + c);
    printf("\n");
    for (int r = 0; r < n; r++) {
        printf("%c ", 'a' + r);
        for (int c = 0; c < n; c++) printf("%c", board[r][c]);
        printf("\n");
    }
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "";
    int at = argc > 2 ? atoi(argv[2]) : 0;
    char computer, human, turn = 'B';
    printf("Enter the board dimension: ");
    if (scanf("%d", &n) != 1) return 1;
    printf("Computer plays (B/W): ");
    if (scanf(" %c", &computer) != 1) return 1;
    human = computer == 'B' ? 'W' : 'B';
    memset(board, 'U', sizeof board);
    board[n / 2 - 1][n / 2 - 1] = board[n / 2][n / 2] = 'W';
    board[n / 2 - 1][n / 2] = board[n / 2][n / 2 - 1] = 'B';
    int layout = !strcmp(mode, "layout");
    print_board(layout);
    int moves = 0, heard = 0;
    while (has_move('B') || has_move('W')) {
        if (!has_move(turn)) {
            printf("%c player has no valid move.\n", turn);
            turn = turn == 'B' ? 'W' : 'B';
            continue;
        }
        if (turn == computer) {
            moves++;
            if (!strcmp(mode, "crash") && moves == at) abort();
            if (!strcmp(mode, "hang") && moves == at) for (;;) {}
            if (!strcmp(mode, "flood") && moves == at) for (;;) printf("thinking very hard\n");
            if (!strcmp(mode, "slow") && moves <= at) {
                struct timespec nap = {1, 500000000};
                nanosleep(&nap, NULL);
            }
            if (!strcmp(mode, "spin") && moves == at) {
                clock_t start = clock();
                volatile unsigned long spun = 0;
                while (clock() - start < 3 * CLOCKS_PER_SEC / 2) spun++;
            }
            if (!strcmp(mode, "falsepass") && moves == at) {
                printf("%c player has no valid move.\n", computer);
                turn = human;
                continue;
            }
            int r = 0, c = 0;
            for (int i = 0; i < n * n; i++)
                if (legal(i / n, i % n, computer)) { r = i / n; c = i % n; break; }
            if (!strcmp(mode, "illegal")) { r = n / 2; c = n / 2; }
            if (!strcmp(mode, "garbage")) { printf("Computer places %c at ??.\n", computer); for (;;) {} }
            char shown = !strcmp(mode, "colour") ? human : computer;
            printf("Computer places %c at %c%c.\n", shown, 'a' + r, 'a' + c);
            if (legal(r, c, computer)) place(r, c, computer);
            print_board(layout);
        } else {
            char move[8];
            if (!strcmp(mode, "deaf") && moves >= at) for (;;) pause();
            printf("Enter move for colour %c (RowCol): ", human);
            if (scanf("%7s", move) != 1) return 0;
            heard++;
            int r = move[0] - 'a', c = move[1] - 'a';
            if (!legal(r, c, human) || (!strcmp(mode, "invalid") && heard == at)) {
                printf("Invalid move.\n%c player wins.\n", computer);
                return 0;
            }
            place(r, c, human);
            print_board(layout);
        }
        turn = turn == 'B' ? 'W' : 'B';
    }
    int b = 0, w = 0;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            b += board[r][c] == 'B';
            w += board[r][c] == 'W';
        }
    if (!strcmp(mode, "verdict")) printf("%c player wins.", b > w ? 'W' : 'B');
    else if (b == w) printf("Draw!\n");
    else printf("%c player wins.\n", b > w ? 'B' : 'W');
    return 0;
}
